/**
 * Polls `read` every 100 ms until `ok` accepts its value; past `ms` it throws naming `what` and the last value
 * read, so a failure says what never happened and where it stood.
 *
 * @example
 * await until("react template cache", () => templateCacheFilled("react"), Boolean, 180_000);
 */
export async function until<T>(what: string, read: () => Promise<T> | T, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  let lastValue: T;
  for (;;) {
    lastValue = await read();
    if (ok(lastValue)) return lastValue;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${ms} ms (last: ${JSON.stringify(lastValue)})`);
    await Bun.sleep(100);
  }
}
