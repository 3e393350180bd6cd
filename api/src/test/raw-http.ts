/**
 * One HTTP/1.1 request written as raw bytes on a socket, so the request target reaches the server exactly
 * as written: fetch and browsers resolve `..`, `%2e%2e` and `\` before sending, which would hide the very
 * spellings a path check has to refuse.
 *
 * @example
 * const res = await rawHttp(port, { host: "todo.sites.localhost", path: "/%2e%2e/x" });
 * expect(res.status).toBe(400);
 */
export type RawAnswer = { status: number; head: string; body: string; text: string };

export async function rawHttp(port: number, o: { host: string; path: string; method?: string; headers?: Record<string, string> }): Promise<RawAnswer> {
  const extra = Object.entries(o.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const request = `${o.method ?? "GET"} ${o.path} HTTP/1.1\r\nHost: ${o.host}\r\n${extra}Connection: close\r\n\r\n`;
  let text = "";
  const decoder = new TextDecoder();
  const done = Promise.withResolvers<void>();
  await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      open: (s) => void s.write(request),
      data: (_, chunk) => void (text += decoder.decode(chunk, { stream: true })),
      close: () => done.resolve(),
      error: () => done.resolve(),
    },
  });
  await Promise.race([done.promise, Bun.sleep(5000)]);
  const split = text.indexOf("\r\n\r\n");
  const head = split < 0 ? text : text.slice(0, split);
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body: split < 0 ? "" : text.slice(split + 4), text };
}
