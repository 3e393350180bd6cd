/**
 * Builds the real Hono app for route tests: the test database, a local object store in a temp folder,
 * emulator-mode sign-in (so tests mint tokens with `emulatorToken`) and a quiet logger.
 *
 * @example
 * const t = await testApp();
 * const alice = t.user("alice");
 * const res = await alice.request("POST", "/api/projects", { name: "Todo" });
 * const typed = await alice.api.projects.$post({ json: { name: "Todo" } }); // checked against the routes
 */
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentOptions } from "../agent/runs";
import { createApp } from "../app";
import { createCoreServices } from "../core-services";
import { type ApiClient, apiClient } from "./api-client";
import type { AppDeps } from "../app-env";
import { emulatorToken } from "./emulator-tokens";
import { createMemoryBus } from "../events/memory-bus";
import type { EventBus } from "../events/types";
import { createTokenVerifier } from "../auth/verify-token";
import { loadConfig } from "../lib/config";
import { type Logger, silentLogger } from "../lib/logger";
import { toPublicConfig } from "../public-config";
import { createSandboxProvider } from "../sandbox/index";
import type { SandboxProvider } from "../sandbox/types";
import type { AppDatabases } from "../services/app-databases";
import { createPreviewTickets } from "../auth/preview-tickets";
import { createImageSigner } from "../services/images";
import { createUserGate } from "../services/users";
import { guardStore } from "../storage/guard";
import { createLocalStore } from "../storage/local";
import type { ObjectStore } from "../storage/types";
import { testDb } from "./test-db";

export const TEST_PROJECT_ID = "demo-test";

export type TestUser = {
  uid: string;
  token: string;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The typed client (`hc<ApiRoutes>`), signed in as this user. */
  api: ApiClient;
};

export async function testApp(
  overrides: {
    store?: ObjectStore;
    env?: Record<string, string>;
    events?: EventBus;
    agent?: AgentOptions;
    provider?: SandboxProvider;
    /** Project databases (test/app-databases.ts); without them the database routes answer "unavailable". */
    appDatabases?: AppDatabases;
    productionDatabases?: AppDatabases;
    /** Where the app logs (silent by default): a test that reads every line hands in its own. */
    logger?: Logger;
  } = {},
) {
  const db = await testDb();
  const dataDir = mkdtempSync(join(tmpdir(), "app-test-"));
  // Sandbox users (other uids) must be able to reach their folders under it, as under ./data.
  chmodSync(dataDir, 0o755);
  const config = loadConfig({
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
    FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
    DATA_DIR: dataDir,
    ...overrides.env,
  });
  const rawStore = overrides.store ?? createLocalStore(join(config.dataDir, "objects"));
  const store = guardStore(rawStore);
  const events = overrides.events ?? createMemoryBus();
  // Sandboxes are only started when a test asks for one.
  const provider = overrides.provider ?? createSandboxProvider(config, silentLogger);
  const { appDatabases, productionDatabases } = overrides;
  const logger = overrides.logger ?? silentLogger;
  const services = createCoreServices({
    config,
    sql: db.sql,
    store,
    logger,
    events,
    provider,
    signer: createImageSigner("test-secret"),
    appDatabases,
    productionDatabases,
    agent: overrides.agent,
    // The sandboxes and secrets stay silent even when a test reads the app's log.
    sandboxLogger: silentLogger,
    // A test that never closes the app leaves no Chromium behind for long.
    pageBrowserIdleMs: 2_000,
  });
  const deps: AppDeps = {
    ...services,
    verifyToken: createTokenVerifier(config.auth),
    previewTickets: createPreviewTickets("test-preview-key"),
    publicConfig: toPublicConfig(config),
    webDist: null,
    // Shared with the sockets of appServer, as start-parts shares it.
    userGate: createUserGate({ sql: db.sql, events }),
  };
  const app = createApp(deps);

  const user = (name: string): TestUser => {
    const uid = `${name}-${crypto.randomUUID()}`;
    const token = emulatorToken(TEST_PROJECT_ID, { uid, email: `${name}@example.com`, name });
    return {
      uid,
      token,
      api: apiClient(app, token),
      request: async (method, path, body, headers = {}) =>
        app.request(path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body !== undefined && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
            ...headers,
          },
          body: body === undefined ? undefined : body instanceof FormData ? body : typeof body === "string" ? body : JSON.stringify(body),
        }),
    };
  };
  // `provider`: the sandboxes' own provider, for a preview proxy that must reach them (test/app-server.ts).
  return { app, deps, db, user, provider };
}
