/**
 * What the Agent Chat's browser tests share: the chat's own app (the shared Auth emulator and Chromium, an app
 * whose model is the scripted OpenAI-compatible server), a user signed in on a page, and the chat's parts of
 * the page by test id. Screenshots go to e2e/artifacts/chat-<name>.png.
 *
 * @example
 * const chat = await startChatSession("e2e-chat-", "Chat E2E", cleanups);
 * chat.model.enqueue(turn.text("Hi"));
 * await openChat(chat.page, chat.projectId, chat.app.url);
 * await input(chat.page).fill("Hello");
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { type FakeModelServer, startFakeModelServer, turn } from "../../api/src/test/fake-model-server";
import { callApi } from "./api";
import { type AppServer, startApp } from "./app-server";
import { appDataDir } from "./data-dir";
import { freePort } from "./free-port";
import { bearerToken } from "./sign-in";
import { ARTIFACTS, type Stack, sharedStack } from "./stack";

// The viewport, as a person sees it: the header and composer are sticky, which full-page shots misplace.
export const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `chat-${name}.png`) });
export const toast = (p: Page, text: string) => p.getByTestId("toast").filter({ hasText: text });
export const input = (p: Page) => p.getByTestId("chat-input");
export const assistant = (p: Page) => p.locator('[data-testid="message"][data-role="assistant"]');
export const user = (p: Page) => p.locator('[data-testid="message"][data-role="user"]');
export const badge = (p: Page, tool: string, status?: string) =>
  p.locator(`[data-testid="tool-badge"][data-tool="${tool}"]${status ? `[data-status="${status}"]` : ""}`);
/** Waits until no run is active (the page shows Send again). */
export const idle = (p: Page) => p.getByTestId("send-button").waitFor();

/**
 * "Fix with AI" or "Fix all with AI": with `reply` queued on the model, clicks `button` and waits for the
 * project's chat to show the user message containing `message`, then the reply. Returns that user message.
 */
export async function fixWithAi(p: Page, model: FakeModelServer, projectId: string, button: Locator, message: string, reply: string): Promise<Locator> {
  model.enqueue(turn.text(reply));
  await button.click();
  await p.waitForURL(`**/project/${projectId}/chat`);
  const sent = user(p).filter({ hasText: message });
  await sent.first().waitFor({ timeout: 20_000 });
  await p.getByText(reply).waitFor({ timeout: 30_000 });
  return sent;
}

export async function openChat(p: Page, id: string, base: string) {
  await p.goto(`${base}/project/${id}/chat`);
  await p.getByTestId("chat-composer").waitFor();
}

/** Pretends the tab was hidden or shown (Chromium keeps headless pages visible). */
export async function setTabHidden(p: Page, hidden: boolean) {
  await p.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

/**
 * Signs in through the emulator's popup (as support/sign-in.ts does), trying again when the SPA reports
 * 'Sign in failed' instead of opening it: on a loaded machine the emulator's helper iframe can answer too late.
 */
export async function signIn(p: Page, base: string, emulatorHost: string) {
  for (let attempt = 1; ; attempt++) {
    await p.goto(`${base}/login`);
    await p.waitForLoadState("networkidle").catch(() => {});
    const popup = p.waitForEvent("popup", { timeout: 45_000 }).catch(() => null);
    const failed = toast(p, "Sign in failed")
      .waitFor({ timeout: 45_000 })
      .then(
        () => null,
        () => null,
      );
    await p.getByRole("button", { name: "Continue with Google" }).click();
    const opened = await Promise.race([popup, failed]);
    if (!opened) {
      const emulator = await fetch(`http://${emulatorHost}/`).then(
        (r) => `HTTP ${r.status}`,
        (e: unknown) => String(e),
      );
      console.warn(`sign-in attempt ${attempt} failed; the Auth emulator at ${emulatorHost} answers: ${emulator}`);
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

export type ChatSession = {
  stack: Stack;
  model: FakeModelServer;
  app: AppServer;
  /** Signed in, at 1440 × 900. */
  page: Page;
  token: string;
  /** A project made for the file's tests. */
  projectId: string;
  api<T>(method: string, path: string, body?: unknown, bearer?: string): Promise<T>;
  newProject(name: string, bearer?: string): Promise<string>;
  /** The last user message the model was sent. */
  lastUserMessage(): { role: string; content: unknown };
  /** Runs `body`; on failure prints the app's log and the last saved tool calls, and screenshots each page. */
  withDiagnostics(name: string, pages: Page[], body: () => Promise<void>): Promise<void>;
};

export async function startChatSession(dataDirPrefix: string, projectName: string, cleanups: Array<() => unknown>): Promise<ChatSession> {
  const stack = await sharedStack();
  const model = await startFakeModelServer();
  cleanups.push(() => model.close());
  const dataDir = appDataDir(dataDirPrefix, cleanups);
  const app = await startApp({
    port: await freePort(),
    dataDir,
    emulatorHost: stack.emulatorHost,
    projectId: stack.projectId,
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "fake-model", MODEL_VISION: "true" },
  });
  cleanups.push(() => app.stop());

  const page = await stack.newPage({ width: 1440, height: 900 });
  await signIn(page, app.url, stack.emulatorHost);
  const token = await bearerToken(page, app.url);
  const api = <T>(method: string, path: string, body?: unknown, bearer = token) => callApi<T>(app.url, bearer, method, path, body);
  const newProject = async (name: string, bearer = token) => (await api<{ id: string }>("POST", "/api/projects", { name }, bearer)).id;
  const projectId = await newProject(projectName);

  return {
    stack,
    model,
    app,
    page,
    token,
    projectId,
    api,
    newProject,
    lastUserMessage() {
      const body = model.requests.at(-1)?.body;
      const found = body?.messages.filter((m) => m.role === "user").at(-1);
      if (!found) throw new Error("the model received no user message");
      return found;
    },
    async withDiagnostics(name, pages, body) {
      try {
        await body();
      } catch (err) {
        console.error(`--- app output (${name}) ---\n${app.output().slice(-6000)}`);
        const saved = await api<Array<{ toolCalls: unknown[] }>>("GET", `/api/messages/${projectId}`).catch(() => []);
        console.error(`--- last saved tool calls ---\n${JSON.stringify(saved.at(-1)?.toolCalls ?? null, null, 1)}`);
        for (const [i, p] of pages.entries()) await shot(p, `failure-${name}-${i}`).catch(() => {});
        throw err;
      }
    },
  };
}
