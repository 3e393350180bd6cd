/**
 * The Terminal screen's two terminals in Chromium, against the real app and a real local sandbox:
 * "Interactive" runs python3 interactively, Ctrl+C stops `sleep 100`, the size follows the window, and tabs
 * hold separate shells; the line terminal ("Shell") cancels a running command on Ctrl+C (the command
 * itself ends in the sandbox, not only the request).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { callApi } from "./support/api";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";
import { waitForTerminal } from "./support/terminal-view";

const support = await checkLocalSandboxSupport();
if (!support.ok) console.warn(`[interactive-terminal e2e] skipped: the local sandbox cannot run here (${support.missing.join("; ")})`);

let stack: Stack;
let page: Page;
let token: string;

const url = (path: string) => `${stack.app.url}${path}`;
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `interactive-terminal-${name}.png`) });

/** A project with a running sandbox (the first shell command starts it). */
async function projectWithSandbox(name: string): Promise<string> {
  const { id } = await callApi<{ id: string }>(stack.app.url, token, "POST", "/api/projects", { name });
  await callApi(stack.app.url, token, "POST", `/api/sandbox/${id}/shell`, { command: "true" });
  return id;
}

const waitForRows = (scope: Locator, predicate: (text: string) => boolean, what: string, timeoutMs = 20_000) =>
  waitForTerminal(scope, predicate, what, timeoutMs);

const PROMPT_END = /sandbox:~\$\s*$/;
const panel = (title: string) => page.locator(`[role="tabpanel"][aria-label="${title}"]`);

/** Host pids of processes whose command line is exactly `command` (sandboxed processes are visible from the host). */
function hostPids(command: string): number[] {
  const out = Bun.spawnSync(["pgrep", "-x", "-f", command]).stdout.toString().trim();
  return out ? out.split("\n").map(Number) : [];
}

beforeAll(async () => {
  stack = await sharedStack();
  page = await stack.newPage({ width: 1280, height: 800 });
  await signInWithGoogle(page, stack.app.url, { email: uniqueEmail("interactive-terminal") });
  token = await bearerToken(page, stack.app.url);
}, 400_000);

afterAll(async () => {
  await page?.context().close();
});

describe.skipIf(!support.ok)("interactive terminal", () => {
  test("python3 runs interactively, Ctrl+C stops `sleep 100`, the size follows the window, tabs are separate shells", async () => {
    const id = await projectWithSandbox("Interactive");
    await page.goto(url(`/project/${id}/terminal`));
    await page.getByRole("heading", { name: "Terminal", exact: true }).waitFor();
    await page.getByRole("button", { name: "Interactive", exact: true }).click();
    const first = panel("bash 1");
    await waitForRows(first, (t) => PROMPT_END.test(t), "the shell prompt");
    await first.click();

    await page.keyboard.type("python3");
    await page.keyboard.press("Enter");
    await waitForRows(first, (t) => />>>\s*$/.test(t), "the python prompt");
    await page.keyboard.type("print(6*7)");
    await page.keyboard.press("Enter");
    await waitForRows(first, (t) => /\n42\n>>>\s*$/.test(t), "42 from python");
    await shot("python");
    await page.keyboard.type("exit()");
    await page.keyboard.press("Enter");
    await waitForRows(first, (t) => PROMPT_END.test(t), "the prompt after python");

    await page.keyboard.type("sleep 100");
    await page.keyboard.press("Enter");
    await waitForRows(first, (t) => /sleep 100\s*$/.test(t), "sleep running");
    await Bun.sleep(500);
    const sent = Date.now();
    await page.keyboard.press("Control+C");
    await waitForRows(first, (t) => /\^C\n.*sandbox:~\$\s*$/.test(t), "^C and the prompt", 5_000);
    expect(Date.now() - sent).toBeLessThan(5_000);
    await page.keyboard.type("echo status=$?; pgrep -x sleep || echo no-sleep-left");
    await page.keyboard.press("Enter");
    await waitForRows(first, (t) => t.includes("status=130\nno-sleep-left"), "sleep gone");

    // Fitted to its element: a smaller window gives the shell fewer columns.
    await page.keyboard.type("clear; stty size");
    await page.keyboard.press("Enter");
    const wide = Number(/(\d+) (\d+)\n/.exec(await waitForRows(first, (t) => /^\d+ \d+$/m.test(t), "stty size"))![2]);
    await page.setViewportSize({ width: 900, height: 700 });
    await Bun.sleep(300);
    await page.keyboard.type("clear; stty size");
    await page.keyboard.press("Enter");
    await waitForRows(
      first,
      (t) => {
        const m = /^(\d+) (\d+)$/m.exec(t);
        return Boolean(m && Number(m[2]) < wide);
      },
      "fewer columns after the resize",
    );
    await page.setViewportSize({ width: 1280, height: 800 });

    // A second tab is another shell; closing it returns to the first, whose session carries on.
    await page.keyboard.type("export MARK=first-tab");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "New terminal tab" }).click();
    const second = panel("bash 2");
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("bash 2");
    await waitForRows(second, (t) => PROMPT_END.test(t), "the second tab's prompt");
    await second.click();
    await page.keyboard.type("echo mark=${MARK:-none}");
    await page.keyboard.press("Enter");
    await waitForRows(second, (t) => t.includes("mark=none"), "a separate shell");
    await shot("two-tabs");
    await page.getByRole("button", { name: "Close bash 2" }).click();
    expect(await page.getByRole("tab").count()).toBe(1);
    await first.click();
    await page.keyboard.type("echo mark=$MARK");
    await page.keyboard.press("Enter");
    await waitForRows(first, (t) => t.includes("mark=first-tab"), "the first tab's session");

    // The line terminal is still there, as it was.
    await page.getByRole("button", { name: "Shell", exact: true }).click();
    await page.getByTestId("terminal").waitFor();
  }, 120_000);

  test("the line terminal's Ctrl+C cancels a running command: ^C, the prompt, and the command ends in the sandbox", async () => {
    const id = await projectWithSandbox("Line Ctrl C");
    await page.goto(url(`/project/${id}/terminal`));
    await page.getByRole("heading", { name: "Terminal", exact: true }).waitFor();
    const line = page.getByTestId("terminal");
    await waitForRows(line, (t) => /Line Ctrl C \$\s*$/.test(t), "the line terminal's prompt");
    await line.click();
    const command = "sleep 321";
    await page.keyboard.type(command);
    await page.keyboard.press("Enter");
    await waitForRows(line, (t) => t.includes("Executing..."), "the Executing animation");
    const deadline = Date.now() + 10_000;
    while (!hostPids(command).length && Date.now() < deadline) await Bun.sleep(50);
    expect(hostPids(command).length).toBeGreaterThan(0);

    await page.keyboard.press("Control+C");
    await waitForRows(line, (t) => /\^C\s*\nLine Ctrl C \$\s*$/.test(t), "^C and the prompt", 5_000);
    const gone = Date.now() + 10_000;
    while (hostPids(command).length && Date.now() < gone) await Bun.sleep(100);
    expect(hostPids(command)).toEqual([]);
    await shot("line-ctrl-c");
  }, 60_000);
});
