/**
 * The Agent Chat end to end (SPEC.md §2 /project/{id}/chat, §4, §7, §8): real Chromium, the real app
 * serving web/dist with OPENAI_BASE_URL pointing at the scripted OpenAI-compatible server
 * (api/src/test/fake-model-server.ts), real Auth emulator. Each test scripts the model's replies and checks
 * what the page shows, and for images what reached the model. Screenshots go to e2e/artifacts/chat-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type FakeModelServer, startFakeModelServer, turn } from "../api/src/test/fake-model-server";
import { type CuttableProxy, startCuttableProxy } from "../api/src/test/tcp-proxy";
import { unnamedControls } from "./support/a11y";
import { type AppServer, startApp } from "./support/app-server";
import { freePort } from "./support/free-port";
import { bearerToken } from "./support/sign-in";
import { callApi, runCleanups } from "./support/api";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";

// A 1×1 PNG: the upload route sniffs the bytes, so the image must be real.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const BUSY = "The agent is still working on this project";

let stack: Stack;
let model: FakeModelServer;
let app: AppServer;
let page: Page;
let token: string;
let projectId: string;
const cleanups: Array<() => unknown> = [];

const url = (path: string) => `${app.url}${path}`;
// The viewport, as a person sees it: the header and composer are sticky, which full-page shots misplace.
const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `chat-${name}.png`) });
const toast = (p: Page, text: string) => p.getByTestId("toast").filter({ hasText: text });
const input = (p: Page) => p.getByTestId("chat-input");
const assistant = (p: Page) => p.locator('[data-testid="message"][data-role="assistant"]');
const user = (p: Page) => p.locator('[data-testid="message"][data-role="user"]');
const badge = (p: Page, tool: string, status?: string) =>
  p.locator(`[data-testid="tool-badge"][data-tool="${tool}"]${status ? `[data-status="${status}"]` : ""}`);

const api = <T>(method: string, path: string, body?: unknown, bearer = token) => callApi<T>(app.url, bearer, method, path, body);

const newProject = async (name: string, bearer = token) => (await api<{ id: string }>("POST", "/api/projects", { name }, bearer)).id;

/** The last user message the model was sent. */
function lastUserMessage(): { role: string; content: unknown } {
  const body = model.requests.at(-1)?.body;
  const found = body?.messages.filter((m) => m.role === "user").at(-1);
  if (!found) throw new Error("the model received no user message");
  return found;
}

async function openChat(p: Page, id: string, base = app.url) {
  await p.goto(`${base}/project/${id}/chat`);
  await p.getByTestId("chat-composer").waitFor();
}

/**
 * Signs in through the emulator's popup (as support/sign-in.ts does), trying again when the SPA reports
 * 'Sign in failed' instead of opening it: on a loaded machine the emulator's helper iframe can answer too late.
 */
async function signIn(p: Page, base: string) {
  for (let attempt = 1; ; attempt++) {
    await p.goto(`${base}/login`);
    await p.waitForLoadState("networkidle").catch(() => {});
    const popup = p.waitForEvent("popup", { timeout: 45_000 }).catch(() => null);
    const failed = toast(p, "Sign in failed")
      .waitFor({ timeout: 45_000 })
      .then(() => null, () => null);
    await p.getByRole("button", { name: "Continue with Google" }).click();
    const opened = await Promise.race([popup, failed]);
    if (!opened) {
      const emulator = await fetch(`http://${stack.emulatorHost}/`).then((r) => `HTTP ${r.status}`, (e: unknown) => String(e));
      console.warn(`sign-in attempt ${attempt} failed; the Auth emulator at ${stack.emulatorHost} answers: ${emulator}`);
      if (attempt >= 5) throw new Error("sign-in: the emulator's popup did not open after 5 attempts");
      await Bun.sleep(2_000 * attempt);
      continue;
    }
    await opened.getByText("Add new account").click();
    await opened.getByText("Auto-generate user information").click();
    await opened.locator("#sign-in").click();
    await p.waitForURL("**/projects", { timeout: 45_000 });
    return;
  }
}

/** Waits until no run is active (the page shows Send again). */
const idle = (p: Page) => p.getByTestId("send-button").waitFor();

/** Pretends the tab was hidden or shown (Chromium keeps headless pages visible). */
async function setTabHidden(p: Page, hidden: boolean) {
  await p.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

beforeAll(async () => {
  stack = await sharedStack();
  model = await startFakeModelServer();
  cleanups.push(() => model.close());
  const dataDir = mkdtempSync(join(tmpdir(), "e2e-chat-"));
  // The local sandbox runs code as other users, who must be able to reach its folders.
  chmodSync(dataDir, 0o755);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  app = await startApp({
    port: await freePort(),
    dataDir,
    emulatorHost: stack.emulatorHost,
    projectId: stack.projectId,
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "fake-model", MODEL_VISION: "true" },
  });
  cleanups.push(() => app.stop());

  page = await stack.newPage({ width: 1440, height: 900 });
  await signIn(page, app.url);
  token = await bearerToken(page, app.url);
  projectId = await newProject("Chat E2E");
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

/** On failure: the app's log and a screenshot of each page involved. */
async function withDiagnostics(name: string, pages: Page[], body: () => Promise<void>) {
  try {
    await body();
  } catch (err) {
    console.error(`--- app output (${name}) ---\n${app.output().slice(-6000)}`);
    const saved = await api<Array<{ toolCalls: unknown[] }>>("GET", `/api/messages/${projectId}`).catch(() => []);
    console.error(`--- last saved tool calls ---\n${JSON.stringify(saved.at(-1)?.toolCalls ?? null, null, 1)}`);
    for (const [i, p] of pages.entries()) await shot(p, `failure-${name}-${i}`).catch(() => {});
    throw err;
  }
}

describe("chat", () => {
  test("an empty chat says 'New chat with Agent', at 1440 and 375 px", async () => {
    await withDiagnostics("empty", [page], async () => {
      await openChat(page, projectId);
      await page.getByText("New chat with Agent").waitFor();
      expect(await page.getByTestId("reasoning-toggle").getAttribute("aria-checked")).toBe("false");
      expect(await page.getByTestId("send-button").isDisabled()).toBe(true);
      await page.getByTestId("image-add-tile").waitFor();
      expect(await unnamedControls(page)).toEqual([]);
      await shot(page, "empty-1440");
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByText("New chat with Agent").waitFor();
      // The composer stays above the mobile bottom bar.
      const composer = await page.getByTestId("chat-composer").boundingBox();
      const bar = await page.getByRole("navigation", { name: "Project views" }).boundingBox();
      if (composer && bar) expect(composer.y + composer.height).toBeLessThanOrEqual(bar.y + 1);
      await shot(page, "empty-375");
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  }, 60_000);

  test("Shift+Enter breaks the line, the input grows to 128 px, Enter sends; 'AI is thinking...' until text arrives", async () => {
    await withDiagnostics("enter", [page], async () => {
      model.reset();
      model.enqueue(
        turn.steps(
          { delayMs: 1200 },
          { text: "Hello! Here is **bold** text, `inline code` and a block:\n\n```js\nconsole.log(\"<script>alert(1)</script>\");\n```\n" },
          { usage: { prompt_tokens: 120, completion_tokens: 30 } },
        ),
      );
      await openChat(page, projectId);
      const box = input(page);
      await box.click();
      const oneLine = (await box.boundingBox())!.height;
      await page.keyboard.type("line one");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("line two");
      expect(await box.inputValue()).toBe("line one\nline two");
      expect((await box.boundingBox())!.height).toBeGreaterThan(oneLine);
      for (let i = 0; i < 8; i++) await page.keyboard.press("Shift+Enter");
      expect((await box.boundingBox())!.height).toBeLessThanOrEqual(128);
      expect((await box.boundingBox())!.height).toBeGreaterThan(120);
      for (let i = 0; i < 8; i++) await page.keyboard.press("Backspace");
      expect(await box.inputValue()).toBe("line one\nline two");
      expect(model.requests).toHaveLength(0);

      await page.keyboard.press("Enter");
      await page.getByTestId("ai-thinking").filter({ hasText: "AI is thinking..." }).waitFor();
      expect(await box.inputValue()).toBe("");
      expect(await page.getByTestId("reasoning-toggle").isDisabled()).toBe(true);
      await user(page).filter({ hasText: "line one" }).waitFor();
      await shot(page, "thinking");

      const answer = assistant(page).last();
      await answer.locator("strong", { hasText: "bold" }).waitFor();
      expect(await page.getByTestId("ai-thinking").count()).toBe(0);
      await idle(page);
      await answer.getByTestId("code-block").waitFor();
      expect(await answer.getByTestId("code-block").textContent()).toContain('console.log("<script>alert(1)</script>");');
      expect(await page.locator("main script").count()).toBe(0);
      await answer.getByTestId("token-usage").filter({ hasText: "150 tokens" }).waitFor();
      expect(await page.getByTestId("reasoning-toggle").isDisabled()).toBe(false);
      expect(lastUserMessage().content).toBe("line one\nline two");
      expect(model.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "line one\nline two" });
      // Shown as the user wrote it, line break included.
      expect(await user(page).last().innerText()).toContain("line one\nline two");

      // Copy confirms for 2 s.
      const copy = answer.getByRole("button", { name: "Copy message" });
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
      await copy.click();
      await answer.getByRole("button", { name: "Copied" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("Hello! Here is **bold** text");
      await answer.getByRole("button", { name: "Copy message" }).waitFor({ timeout: 3_000 });
    });
  }, 60_000);

  test("a tool run: step lines and badges go from in progress to completed, Extended Thinking shows, the file appears in Files", async () => {
    await withDiagnostics("tools", [page], async () => {
      model.reset();
      model.enqueue(
        turn.steps(
          { reasoning: "The user wants a greeting. I will write App.tsx and check the sandbox." },
          { text: "I'll build it.\nCreating a greeting app\n" },
          { toolCalls: [{ name: "write_file", arguments: { path: "src/App.tsx", content: 'export const App = () => "Hello";\n' } }] },
        ),
        turn.toolCalls([{ name: "run_shell", arguments: { command: "sleep 2 && echo slept" } }]),
        turn.text("All done. Start it with `npm run dev`."),
      );
      await openChat(page, projectId);
      // Record every status each badge shows, however briefly.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { badgeLog: string[] }).badgeLog = seen;
        const record = () => {
          for (const el of document.querySelectorAll('[data-testid="tool-badge"]')) {
            const entry = `${el.getAttribute("data-tool")}:${el.getAttribute("data-status")}`;
            if (!seen.includes(entry)) seen.push(entry);
          }
        };
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
      });

      await page.getByTestId("reasoning-toggle").click();
      expect(await page.getByTestId("reasoning-toggle").getAttribute("aria-checked")).toBe("true");
      await input(page).fill("Build a greeting app");
      await input(page).press("Enter");

      const answer = assistant(page).last();
      await answer.getByTestId("thinking").filter({ hasText: "Extended Thinking" }).waitFor();
      await answer.locator('[data-testid="step"][data-status="in_progress"]', { hasText: "Creating a greeting app" }).waitFor();
      await answer.locator('[data-testid="step"][data-status="completed"]', { hasText: "Created src/App.tsx" }).waitFor();
      await badge(page, "write_file", "completed").waitFor();
      expect(await badge(page, "write_file").getAttribute("data-status")).toBe("completed");
      await badge(page, "run_shell", "in_progress").waitFor();
      expect(await badge(page, "run_shell", "in_progress").locator('[role="status"]').count()).toBe(1); // the spinner
      await shot(page, "tool-running");
      await badge(page, "run_shell", "completed").waitFor({ timeout: 30_000 });
      await answer.locator('[data-testid="step"][data-status="completed"]', { hasText: "Ran shell: sleep 2 && echo slept" }).waitFor();
      await answer.getByText("All done. Start it with").waitFor();
      await idle(page);

      const log = await page.evaluate(() => (window as unknown as { badgeLog: string[] }).badgeLog);
      expect(log).toContain("write_file:completed");
      expect(log.indexOf("run_shell:in_progress")).toBeGreaterThanOrEqual(0);
      expect(log.indexOf("run_shell:completed")).toBeGreaterThan(log.indexOf("run_shell:in_progress"));
      expect(await answer.getByTestId("thinking").textContent()).toContain("Extended Thinking");
      await answer.getByRole("button", { name: "Extended Thinking" }).click();
      await answer.getByText("The user wants a greeting.").waitFor();

      // The badge opens to show the tool's result.
      await badge(page, "write_file").getByRole("button").click();
      await badge(page, "write_file").getByText(/Created src\/App\.tsx/).waitFor();
      expect(await unnamedControls(page)).toEqual([]);
      await shot(page, "tool-done-1440");
      await page.setViewportSize({ width: 375, height: 812 });
      await shot(page, "tool-done-375");
      await page.setViewportSize({ width: 1440, height: 900 });

      // After a reload the saved message shows the same badges, completed.
      await page.reload();
      await badge(page, "write_file", "completed").waitFor();
      await badge(page, "run_shell", "completed").waitFor();

      await page.goto(url(`/project/${projectId}/files`));
      await page.locator('[data-testid="file-row"][data-path="src/App.tsx"]').waitFor();
    });
  }, 90_000);

  test("a send while a run is going is refused with the server's message (409), and the draft is kept", async () => {
    await withDiagnostics("409", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ delayMs: 2500 }, { text: "Answer to the other tab." }));
      await openChat(page, projectId);
      await idle(page);
      // Another tab (here: the API directly) starts a run.
      const other = fetch(url("/api/messages/stream"), {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ projectId, content: "from another tab", enableReasoning: false }),
      }).then((r) => r.text());
      const deadline = Date.now() + 10_000;
      while (model.requests.length === 0 && Date.now() < deadline) await Bun.sleep(50);

      await input(page).fill("second message");
      await input(page).press("Enter");
      const refused = toast(page, "Failed to send message");
      await refused.waitFor();
      expect(await refused.textContent()).toContain(BUSY);
      expect(await refused.getAttribute("data-variant")).toBe("destructive");
      await shot(page, "409");
      expect(await input(page).inputValue()).toBe("second message");
      expect(await other).toContain('"type":"done"');
      await input(page).fill("");
    });
  }, 60_000);

  test("a stream error event shows an 'Error' toast with the server's message", async () => {
    await withDiagnostics("error", [page], async () => {
      model.reset();
      model.enqueue(turn.http(400, { error: { message: "Scripted refusal for the chat test", type: "invalid_request_error" } }));
      await openChat(page, projectId);
      await input(page).fill("This one fails");
      await input(page).press("Enter");
      const error = page.getByTestId("toast").filter({ has: page.getByText("Error", { exact: true }) });
      await error.waitFor();
      expect(await error.textContent()).toContain("Scripted refusal for the chat test");
      expect(await error.getAttribute("data-variant")).toBe("destructive");
      await idle(page);
      await assistant(page).last().getByTestId("message-status").filter({ hasText: "Failed" }).waitFor();
      await shot(page, "error");
    });
  }, 60_000);

  test("a run that finishes while the tab is hidden: 'AI Processing Complete', and on return the background note", async () => {
    await withDiagnostics("hidden", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ delayMs: 1500 }, { text: "Finished while you were away." }));
      await openChat(page, projectId);
      await input(page).fill("Work in the background");
      await input(page).press("Enter");
      await page.getByTestId("stop-button").waitFor();
      await setTabHidden(page, true);
      await toast(page, "AI Processing Complete").waitFor();
      await idle(page);
      const refetched = page.waitForResponse((r) => r.url().endsWith(`/api/messages/${projectId}`) && r.request().method() === "GET");
      await setTabHidden(page, false);
      await refetched;
      const note = toast(page, "AI Processing Complete");
      await note.filter({ hasText: "processed in the background" }).waitFor();
      await assistant(page).last().getByText("Finished while you were away.").waitFor();
    });
  }, 60_000);

  test("Stop keeps the partial answer, marked stopped; a reload mid-run reattaches to the stream", async () => {
    await withDiagnostics("stop", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ text: "Half of the answer." }, { delayMs: 5000 }, { text: " The other half." }));
      await openChat(page, projectId);
      await input(page).fill("A long task");
      await input(page).press("Enter");
      await assistant(page).last().getByText("Half of the answer.").waitFor();

      await page.reload();
      // Reattached: the replayed text and the Stop button, without sending anything again.
      await assistant(page).last().getByText("Half of the answer.").waitFor();
      await page.getByTestId("stop-button").waitFor();
      expect(model.requests).toHaveLength(1);
      // Let the scroll to the end settle (a shot taken mid-scroll shows the sticky header out of place).
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await shot(page, "resumed");

      await page.getByTestId("stop-button").click();
      await idle(page);
      const last = assistant(page).last();
      await last.getByTestId("message-status").filter({ hasText: "Stopped" }).waitFor();
      expect(await last.textContent()).toContain("Half of the answer.");
      expect(await last.textContent()).not.toContain("The other half.");
    });
  }, 60_000);

  test("images: the add tile (hidden at 5), 'Uploading images...' holds the send, and the images reach the model as image parts", async () => {
    await withDiagnostics("images", [page], async () => {
      model.reset();
      model.enqueue(turn.text("I can see your images."));
      const imagesProject = await newProject("Chat images");
      await openChat(page, imagesProject);
      // Slow uploads, so the uploading state can be seen.
      await page.route("**/api/upload/image", async (route) => {
        await Bun.sleep(1200);
        await route.continue();
      });
      const files = ["a", "b", "c", "d", "e", "f"].map((n) => ({ name: `${n}.png`, mimeType: "image/png", buffer: PNG }));
      await page.getByTestId("image-input").setInputFiles(files);
      await page.getByTestId("uploading-hint").filter({ hasText: "Uploading images..." }).waitFor();
      expect(await page.getByTestId("attachment").count()).toBe(5);
      expect(await page.getByTestId("image-add-tile").count()).toBe(0);
      expect(await page.getByTestId("send-button").isDisabled()).toBe(true);
      await input(page).press("Enter");
      await shot(page, "uploading");
      await page.getByTestId("uploading-hint").waitFor({ state: "detached" });
      expect(model.requests).toHaveLength(0);
      expect(await page.locator('[data-testid="attachment"][data-status="uploaded"]').count()).toBe(5);

      // Removing one brings the tile back.
      await page.getByRole("button", { name: "Remove image" }).first().click();
      await page.getByTestId("image-add-tile").waitFor();
      await page.unroute("**/api/upload/image");
      await page.getByTestId("send-button").click();

      await user(page).last().getByText("(Image uploaded)").waitFor();
      expect(await user(page).last().getByTestId("message-image").count()).toBe(4);
      await assistant(page).last().getByText("I can see your images.").waitFor();
      await idle(page);

      const sent = lastUserMessage().content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
      expect(Array.isArray(sent)).toBe(true);
      const images = sent.filter((part) => part.type === "image_url");
      expect(images).toHaveLength(4);
      for (const part of images) expect(part.image_url?.url.startsWith("data:image/png;base64,")).toBe(true);
      expect(sent.some((part) => part.type === "text" && part.text?.includes("(Image uploaded)"))).toBe(true);
      // The images load in the page (signed URLs, no bearer needed).
      expect(await user(page).last().getByTestId("message-image").first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
      await shot(page, "images-1440");
      await page.setViewportSize({ width: 375, height: 812 });
      await shot(page, "images-375");
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  }, 60_000);

  test("a connection dropped mid-run: 'Connection interrupted', then the completed work shows", async () => {
    let proxy: CuttableProxy | null = null;
    const viaProxy = await stack.newPage({ width: 1440, height: 900 });
    await withDiagnostics("dropped", [viaProxy], async () => {
      proxy = startCuttableProxy({ hostname: "127.0.0.1", port: Number(new URL(app.url).port) });
      const base = `http://127.0.0.1:${proxy.port}`;
      await signIn(viaProxy, base);
      const bearer = await bearerToken(viaProxy, base);
      const id = await newProject("Chat dropped", bearer);
      model.reset();
      model.enqueue(turn.steps({ text: "Starting on it." }, { delayMs: 2000 }, { text: " All of the work is done." }));
      await openChat(viaProxy, id, base);
      await input(viaProxy).fill("Do the work");
      await input(viaProxy).press("Enter");
      await assistant(viaProxy).last().getByText("Starting on it.").waitFor();

      proxy.cut();
      proxy.restore();
      await toast(viaProxy, "Connection interrupted").filter({ hasText: "Refreshing to show completed work..." }).waitFor();
      await shot(viaProxy, "interrupted");
      await assistant(viaProxy).last().getByText("All of the work is done.", { exact: false }).waitFor({ timeout: 20_000 });
      await idle(viaProxy);
    });
    (proxy as CuttableProxy | null)?.stop();
    await viaProxy.context().close();
  }, 300_000);
  test("a person asks for a React app: create_boilerplate and write_file run, the files appear, the Preview renders the app", async () => {
    await withDiagnostics("react-app", [page], async () => {
      const id = await newProject("Chat React app");
      const app_tsx = 'export default function App() {\n  return <h1>Plant tracker by the agent</h1>;\n}\n';
      model.reset();
      model.enqueue(
        turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "react" } }], "I'll start from the React template.\n"),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: app_tsx } }]),
        turn.text("Your plant tracker is ready in the Preview."),
      );
      await openChat(page, id);
      await input(page).fill("Build me a plant tracker in React");
      await input(page).press("Enter");
      await badge(page, "create_boilerplate", "completed").waitFor({ timeout: 150_000 });
      await badge(page, "write_file", "completed").waitFor({ timeout: 30_000 });
      await assistant(page).last().getByText("Your plant tracker is ready in the Preview.").waitFor({ timeout: 30_000 });
      await idle(page);
      await shot(page, "react-app-chat");

      await page.goto(url(`/project/${id}/files`));
      await page.getByText("src/App.tsx").first().waitFor();
      await page.getByText("package.json").first().waitFor();

      await page.goto(url(`/project/${id}/preview`));
      const frame = page.frameLocator("iframe[title^='Preview of']");
      await frame.getByText("Plant tracker by the agent").waitFor({ timeout: 60_000 });
      await shot(page, "react-app-preview");
    });
  }, 300_000);
});
