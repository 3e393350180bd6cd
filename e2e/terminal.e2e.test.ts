/**
 * The Terminal view's line terminal end to end: real Chromium and Auth emulator (stack.ts), an app of this
 * file's own, and — where this machine can isolate code — a real local sandbox: without one the view says so; with one
 * the terminal runs commands, shows stderr in red, and Ctrl+C and Backspace edit the line. The Preview view:
 * preview.e2e.test.ts; the interactive terminal: interactive-terminal.e2e.test.ts. Screenshots go to
 * e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { type AppServer, startApp } from "./support/app-server";
import { callApi, runCleanups } from "./support/api";
import { appDataDir } from "./support/data-dir";
import { freePort } from "./support/free-port";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { ARTIFACTS, sharedStack } from "./support/stack";
import { stepsReporting } from "./support/step";
import { promptCount as promptsIn, runInTerminal as runIn, terminalLines as linesOf, waitForTerminal as waitForTerminalOf } from "./support/terminal-view";

const PROJECT_NAME = "Terminal E2E";

const support = await checkLocalSandboxSupport();
const SKIP_SANDBOX = support.ok
  ? null
  : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")}). Set SANDBOX_PROVIDER=e2b or fix the above to run these.`;
if (SKIP_SANDBOX) console.warn(`[terminal e2e] real-sandbox tests ${SKIP_SANDBOX}`);

const cleanups: Array<() => unknown> = [];
let app: AppServer;
let page: Page;
let token: string;
let emptyProjectId: string;
let projectId: string;

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `preview-terminal-${name}.png`) });
const step = stepsReporting({ shot, appOutput: () => app.output() });
const terminalLines = () => linesOf(page);
const waitForTerminal = (predicate: (text: string) => boolean, what: string, timeoutMs?: number) => waitForTerminalOf(page, predicate, what, timeoutMs);
const promptCount = (text: string) => promptsIn(text, PROJECT_NAME);
const runInTerminal = (command: string) => runIn(page, command, PROJECT_NAME);

beforeAll(async () => {
  const stack = await sharedStack();
  // Not the shared app: that one is killed when the test process exits, and its sandboxes with it, unstopped.
  app = await startApp({
    port: await freePort(),
    dataDir: appDataDir("e2e-terminal-", cleanups),
    emulatorHost: stack.emulatorHost,
    projectId: stack.projectId,
  });
  cleanups.push(() => app.stop());
  page = await stack.newPage({ width: 1440, height: 900 });
  await signInWithGoogle(page, app.url, { email: uniqueEmail("terminal") });
  token = await bearerToken(page, app.url);
  emptyProjectId = (await api<Project>("POST", "/api/projects", { name: "No Sandbox Yet" })).id;
  projectId = (await api<Project>("POST", "/api/projects", { name: PROJECT_NAME })).id;
}, 180_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("without a sandbox", () => {
  step("Terminal says 'No Sandbox Available' with the hint to start chatting", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${app.url}/project/${emptyProjectId}/terminal`);
    await page.getByText("No Sandbox Available", { exact: true }).waitFor();
    await page.getByText("Start chatting with the AI to create files and initialize the sandbox.", { exact: true }).waitFor();
    expect(await page.locator(".xterm").count()).toBe(0);
    await shot("terminal-no-sandbox-1440");
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByText("No Sandbox Available", { exact: true }).waitFor();
    await shot("terminal-no-sandbox-375");
  });
});

describe("with a real local sandbox", () => {
  let sandboxId: string;
  beforeAll(async () => {
    if (SKIP_SANDBOX) return;
    await api("POST", `/api/files/${projectId}`, { path: "index.html", content: "<h1>Hi terminal</h1>" });
    await api("POST", `/api/sandbox/${projectId}/shell`, { command: "true" }); // the first command starts the sandbox
    sandboxId = (await api<Project>("GET", `/api/projects/${projectId}`)).sandboxId!;
  }, 120_000);

  step(
    "Terminal runs ls and echo, shows stderr in red, and Ctrl+C and Backspace edit the line",
    async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${app.url}/project/${projectId}/terminal`);
      await page.getByRole("heading", { name: "Terminal", exact: true }).waitFor();
      expect(await page.getByTestId("terminal-sandbox-id").textContent()).toBe(sandboxId.slice(0, 8));
      const greeting = await waitForTerminal((t) => t.includes(`${PROJECT_NAME} $`), "the prompt");
      expect(greeting).toContain("E2B Sandbox");
      expect(greeting).toContain(sandboxId.slice(0, 8));
      expect(await page.locator(".xterm-rows").evaluate((el) => getComputedStyle(el).fontSize)).toBe("14px");
      // The colour behind the text: the first ancestor of the rows with a background of its own.
      const background = await page.locator(".xterm-rows").evaluate((rows) => {
        for (let el: Element | null = rows; el; el = el.parentElement) {
          const bg = getComputedStyle(el).backgroundColor;
          if (bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent") return bg;
        }
        return null;
      });
      expect(background).toBe("rgb(10, 10, 11)");
      await page.getByTestId("terminal").click();

      expect(await runInTerminal("ls")).toContain("index.html");
      const echoed = await runInTerminal("echo hello");
      expect(echoed.split("\n")).toContain("hello");

      // The animation shows while a command runs, and is gone once the prompt is back.
      await page.keyboard.type("sleep 1 && echo slept");
      await page.keyboard.press("Enter");
      await waitForTerminal((t) => t.includes("Executing..."), "'Executing...'");
      const slept = await waitForTerminal((t) => t.split("\n").includes("slept") && t.endsWith(`${PROJECT_NAME} $`), "slept", 20_000);
      expect(slept).not.toContain("Executing...");

      // A failing command: stderr in red, then the exit code as a red 'Error: ...'.
      const failed = await runInTerminal("ls /no-such-dir");
      expect(failed).toContain("No such file or directory");
      expect(failed).toContain("Error: Command exited with code 2");
      const colours = await page
        .locator(".xterm-rows span")
        .evaluateAll((spans) =>
          spans
            .filter((s) => /No such file or directory|Error: Command exited/.test(s.textContent ?? ""))
            .map((s) => ({ cls: s.className, color: getComputedStyle(s).color })),
        );
      expect(colours.length).toBeGreaterThanOrEqual(2);
      for (const c of colours) {
        expect(c.cls).toContain("xterm-fg-1");
        expect(c.color).toBe("rgb(248, 113, 113)");
      }
      await shot("terminal-1440");

      // Ctrl+C drops the line: ^C, a fresh prompt, and nothing ran.
      const prompts = promptCount(await terminalLines());
      await page.keyboard.type("echo should-not-run");
      await page.keyboard.press("Control+C");
      const cancelled = await waitForTerminal((t) => promptCount(t) > prompts, "a prompt after ^C");
      expect(cancelled).toContain(`${PROJECT_NAME} $ echo should-not-run^C`);
      expect(cancelled.split("\n")).not.toContain("should-not-run");

      // Backspace deletes a character; an empty line only re-prompts.
      await page.keyboard.type("echo abcx");
      await page.keyboard.press("Backspace");
      await page.keyboard.press("Enter");
      await waitForTerminal((t) => t.split("\n").includes("abc"), "abc");
      const emptyBefore = promptCount(await terminalLines());
      await page.keyboard.press("Enter");
      await waitForTerminal((t) => promptCount(t) === emptyBefore + 1, "one more prompt");

      // Narrow screen: font size 12.
      await page.setViewportSize({ width: 375, height: 740 });
      await page.waitForFunction(() => getComputedStyle(document.querySelector(".xterm-rows")!).fontSize === "12px");
      await Bun.sleep(300);
      await shot("terminal-375");
      await page.setViewportSize({ width: 1440, height: 900 });
    },
    90_000,
    SKIP_SANDBOX,
  );
});
