/**
 * Reading and typing into the Terminal view's line terminal (xterm's DOM renderer) from a browser test.
 *
 * @example
 * await waitForTerminal(page, (t) => t.includes("My App $"), "the prompt");
 * expect(await runInTerminal(page, "ls", "My App")).toContain("index.html");
 */
import type { Locator, Page } from "playwright-core";
import { STEP_MS } from "./stack";

/** The visible rows of the terminal in `scope` (the page, or one tab's panel), trailing blanks trimmed. */
export const terminalLines = (scope: Page | Locator) =>
  scope.locator(".xterm-rows").evaluate((rows) =>
    [...rows.children]
      .map((r) => (r.textContent ?? "").replace(/\u00a0/g, " ").trimEnd())
      .join("\n")
      .trimEnd(),
  );

export async function waitForTerminal(scope: Page | Locator, predicate: (text: string) => boolean, what: string, timeoutMs = STEP_MS): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = "";
  while (Date.now() < deadline) {
    text = await terminalLines(scope);
    if (predicate(text)) return text;
    await Bun.sleep(50);
  }
  throw new Error(`terminal never showed ${what}; it shows:\n${text}`);
}

/** How many lines start with the prompt (`<project name> $`). */
export const promptCount = (text: string, projectName: string) => text.split("\n").filter((l) => l.startsWith(`${projectName} $`)).length;

/** Types a line and presses Enter, then waits for the prompt to come back. */
export async function runInTerminal(page: Page, command: string, projectName: string) {
  const before = promptCount(await terminalLines(page), projectName);
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
  return waitForTerminal(page, (t) => promptCount(t, projectName) > before && t.endsWith(`${projectName} $`), `the prompt after "${command}"`, 30_000);
}
