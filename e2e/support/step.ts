/**
 * Steps of a browser story that explain their own failure: a screenshot of the page and the end of the
 * app's log, printed before the error is passed on. A step can be skipped with a reason (the machine cannot
 * run local sandboxes, say), which the test list then shows.
 *
 * @example
 * const step = stepsReporting({ shot: (name) => page.screenshot({ path: join(ARTIFACTS, `files-${name}.png`) }), appOutput: () => app.output() });
 * step("lists every file", async () => { … });
 */
import { test } from "bun:test";

export function stepsReporting(o: {
  shot: (name: string) => Promise<unknown>;
  appOutput: () => string;
  /** More to print after the app's log on a failure (the preview's console, say). */
  more?: () => Promise<string> | string;
  /** Each step's time limit unless the step gives its own (default 60 s). */
  timeoutMs?: number;
  /** Skips every step, saying why (the machine cannot run local sandboxes, say). */
  skip?: string | null;
}) {
  return function step(name: string, run: () => Promise<void>, timeoutMs = o.timeoutMs ?? 60_000, skip: string | null = o.skip ?? null) {
    if (skip) {
      test.skip(`${name} (${skip})`, () => {});
      return;
    }
    test(
      name,
      async () => {
        try {
          await run();
        } catch (err) {
          await o.shot(`failure-${name.replace(/\W+/g, "-").slice(0, 40)}`).catch(() => {});
          console.error(`--- app output ---\n${o.appOutput().slice(-4000)}`);
          if (o.more) console.error(await Promise.resolve(o.more()).catch((e: unknown) => `(could not say more: ${String(e)})`));
          throw err;
        }
      },
      timeoutMs,
    );
  };
}
