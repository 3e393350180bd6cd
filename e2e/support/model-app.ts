/**
 * A test file's own app behind the scripted model server (api/src/test/fake-model-server.ts), on the shared
 * Auth emulator and Chromium (stack.ts), with a page signed in as a new user and the bearer token its API
 * calls use. `reactProject` adds a project on the react template, its sandbox running Vite. Every part's
 * stop goes onto `cleanups` (run them with runCleanups).
 *
 * @example
 * const m = await startModelApp({ name: "history", cleanups, env: { OPENAI_MODEL: "fake-model" } });
 * const { projectId, sandboxId } = await reactProject(m, "Repair E2E");
 */
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { type FakeModelServer, startFakeModelServer } from "../../api/src/test/fake-model-server";
import { callApi } from "./api";
import { givePreviewCookie } from "./sandbox-preview";
import { type AppServer, startApp } from "./app-server";
import { appDataDir } from "./data-dir";
import { freePort } from "./free-port";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./sign-in";
import { type Stack, sharedStack } from "./stack";
import { templateCacheFilled } from "./template-cache";
import { until } from "./until";

export type ModelApp = {
  stack: Stack;
  model: FakeModelServer;
  app: AppServer;
  page: Page;
  token: string;
  api<T>(method: string, path: string, body?: unknown): Promise<T>;
};

export async function startModelApp(o: {
  /** Names the data folder and the signed-in user. */
  name: string;
  cleanups: Array<() => unknown>;
  /** The app's settings besides the model server's address and key (OPENAI_MODEL, MODELS, limits…). */
  env?: Record<string, string>;
  /** Warm the react template and wait until its cache is filled (for `reactProject`). */
  react?: boolean;
  viewport?: { width: number; height: number };
  /** How long the app may take to answer its health check (startApp's default: 60 s). */
  startTimeoutMs?: number;
  /** Called with the page before it signs in (to listen to its console, say). */
  onPage?(page: Page): void | Promise<void>;
}): Promise<ModelApp> {
  const stack = await sharedStack();
  const model = await startFakeModelServer();
  o.cleanups.push(() => model.close());
  const app = await startApp({
    port: await freePort(),
    dataDir: appDataDir(`e2e-${o.name}-`, o.cleanups),
    emulatorHost: stack.emulatorHost,
    projectId: stack.projectId,
    timeoutMs: o.startTimeoutMs,
    env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", ...(o.react ? { SANDBOX_WARM_TEMPLATES: "react" } : {}), ...o.env },
  });
  o.cleanups.push(() => app.stop());
  if (o.react) await until("react template cache", () => templateCacheFilled("react"), Boolean, 180_000);

  const page = await stack.newPage(o.viewport ?? { width: 1440, height: 900 });
  o.cleanups.push(() => page.context().close());
  await o.onPage?.(page);
  await signInWithGoogle(page, app.url, { email: uniqueEmail(o.name) });
  const token = await bearerToken(page, app.url);
  return { stack, model, app, page, token, api: (method, path, body) => callApi(app.url, token, method, path, body) };
}

/**
 * A new project on the react template: files written, dependencies installed, Vite started in its sandbox; the
 * page's browser holds the preview host's cookie, so its tabs may open the preview directly.
 */
export async function reactProject(m: ModelApp, name: string): Promise<{ projectId: string; sandboxId: string }> {
  const projectId = (await m.api<Project>("POST", "/api/projects", { name })).id;
  await m.api("POST", `/api/sandbox/${projectId}/template`, { template: "react" });
  const sandboxId = (await m.api<Project>("GET", `/api/projects/${projectId}`)).sandboxId!;
  await givePreviewCookie(m.page.context(), m.api, m.app.url, projectId);
  return { projectId, sandboxId };
}
