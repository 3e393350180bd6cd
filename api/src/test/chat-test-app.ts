/**
 * The real app for chat tests: `testApp()` wired to a fake model server, with agent limits short enough
 * for tests, plus a real HTTP server (so a test can drop its connection mid-stream) and an SSE reader.
 *
 * @example
 * const model = await startFakeModelServer();
 * const t = await chatTestApp({ model });
 * model.enqueue(turn.text("Hi"));
 * const alice = t.user("alice");
 * const events = await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "Hello" }));
 */
import { chmodSync } from "node:fs";
import { streamEventSchema, type StreamEvent } from "@shared/events/stream";
import type { AgentOptions } from "../agent/runs";
import type { EventBus } from "../events/types";
import type { Logger } from "../lib/logger";
import { apiClient } from "./api-client";
import { emulatorToken } from "./emulator-tokens";
import type { FakeModelServer } from "./fake-model-server";
import { TEST_PROJECT_ID, testApp } from "./test-app";

export const FAST_LIMITS = { backoffBaseMs: 5, idleTimeoutMs: 5_000, maxRetryWaitMs: 5_000 };

export async function chatTestApp(
  o: { model?: FakeModelServer | null; agent?: AgentOptions; env?: Record<string, string>; logger?: Logger; events?: EventBus } = {},
) {
  const env = o.model
    ? { OPENAI_BASE_URL: o.model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "fake-model", MODEL_VISION: "true", ...o.env }
    : { ...o.env };
  const agent: AgentOptions = { ...o.agent, limits: { ...FAST_LIMITS, ...o.agent?.limits } };
  const t = await testApp({ env, agent, logger: o.logger, events: o.events });
  // Local sandboxes run as other uids, which must be able to reach the data folder.
  chmodSync(t.deps.config.dataDir, 0o711);
  const {
    app,
    deps: { runs },
  } = t;
  let server: ReturnType<typeof Bun.serve> | null = null;
  const origin = () => {
    server ??= Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, idleTimeout: 0 });
    return `http://127.0.0.1:${server.port}`;
  };

  const user = (name: string) => {
    const uid = `${name}-${crypto.randomUUID()}`;
    const token = emulatorToken(TEST_PROJECT_ID, { uid, email: `${name}@example.com`, name });
    const init = (method: string, body?: unknown, signal?: AbortSignal): RequestInit => ({
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    return {
      uid,
      token,
      /** The typed client (`hc<ApiRoutes>`) through `app.request`, signed in as this user. */
      api: apiClient(app, token),
      /** Through `app.request` (no network). */
      request: async (method: string, path: string, body?: unknown) => app.request(path, init(method, body)),
      /** Over real HTTP, so the connection can be dropped with `signal`. */
      fetch: (method: string, path: string, body?: unknown, signal?: AbortSignal) => fetch(`${origin()}${path}`, init(method, body, signal)),
      async project(name = "Chat test"): Promise<string> {
        const res = await app.request("/api/projects", init("POST", { name }));
        return ((await res.json()) as { id: string }).id;
      },
    };
  };

  return {
    ...t,
    app,
    runs,
    user,
    close: async () => {
      await runs.shutdown();
      server?.stop(true);
      await t.deps.sandboxes.shutdown();
      await t.deps.pageBrowser?.close();
    },
  };
}

/** Reads an SSE response to its end (or until `until` says stop), parsing each `data:` line. */
export async function readEvents(res: Response, until?: (event: StreamEvent, all: StreamEvent[]) => boolean): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of block.split("\n")) {
        if (!line.startsWith("data: ")) continue;
        const event = streamEventSchema.parse(JSON.parse(line.slice(6)));
        events.push(event);
        if (until?.(event, events)) {
          await reader.cancel();
          return events;
        }
      }
    }
  }
  return events;
}

export const textOf = (events: StreamEvent[]) => events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])).join("");
