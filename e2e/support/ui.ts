/** Small waits shared by the UI tests. */
import type { Page } from "playwright-core";

/** Resolves once no headlessui enter/leave transition is running (a sheet has finished sliding in, say). */
export async function transitionsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector("[data-transition]"));
}
