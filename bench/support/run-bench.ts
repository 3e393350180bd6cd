/**
 * The frame of a bench that starts things it must stop (databases, servers, Caddy): each start registers its
 * clean-up; they run in reverse order however the bench ends (its figures, a failure, Ctrl-C), and the
 * process exits with the bench's code.
 *
 * @example
 * await runBench(async (cleanups) => {
 *   const db = await createBenchDb(adminUrl);
 *   cleanups.push(() => db.drop());
 *   return ratio >= GOAL ? 0 : 1;
 * });
 */
export type Cleanups = { push(step: () => Promise<unknown>): void };

export async function runBench(main: (cleanups: Cleanups) => Promise<number | void>): Promise<never> {
  const steps: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    for (const step of steps.reverse()) await step().catch((e) => console.error(`cleanup: ${String(e)}`));
    steps.length = 0;
  };
  process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
  let code = 1;
  try {
    code = (await main({ push: (step) => steps.push(step) })) ?? 0;
  } catch (error) {
    console.error(`\nBench failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await cleanup();
  }
  process.exit(code);
}
