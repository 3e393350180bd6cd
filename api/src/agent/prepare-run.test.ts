import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { ProjectAccess } from "../lib/project-access";
import { grantedAccess } from "../test/access";
import { silentLogger } from "../lib/logger";
import { startFakeModelServer, type FakeModelServer } from "../test/fake-model-server";
import { memoryApp } from "../test/memory-app";
import { memoryRunStore, memoryWorkspace } from "../test/memory-workspace";
import { DEFAULT_AGENT_LIMITS } from "./agent-limits";
import { createModelClient } from "./model-client";
import { prepareRun } from "./prepare-run";
import type { RunDeps } from "./runs";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

// A run's preparation on the in-memory ports, the project choosing "fake-model" from the models the server offers.
async function prepare(o: { withApp?: boolean; contextTokensConfigured?: boolean; maxOutputTokensConfigured?: boolean } = {}) {
  const runs = memoryRunStore({ p1: { ownerId: "alice", name: "Todo" } });
  await runs.store.claim({ projectId: "p1", userMessageId: "u1", assistantMessageId: "m1", content: "Build it", attachments: [], senderId: "alice" });
  const workspace = memoryWorkspace({ "src/App.tsx": "export {}" });
  if (o.withApp) workspace.app = memoryApp(workspace.fileMap).runtime;
  const conversations = {
    ...runs.store,
    load: async (access: ProjectAccess) => {
      const loaded = await runs.store.load(access);
      return { ...loaded, project: { ...loaded.project, model: "fake-model" } };
    },
  };
  const setup = { client: createModelClient({ baseUrl: model.baseUrl, apiKey: "k" }), name: "small", models: ["small", "fake-model"] };
  const deps: RunDeps = {
    store: runs.store,
    conversations,
    workspaces: { forProject: () => workspace },
    model: setup,
    search: { kind: "none" },
    logger: silentLogger,
    agent: { contextTokensConfigured: o.contextTokensConfigured, maxOutputTokensConfigured: o.maxOutputTokensConfigured },
  };
  return prepareRun(deps, {
    access: grantedAccess("alice", "p1"),
    excludeIds: ["u1", "m1"],
    message: { content: "Build it", images: [], enableReasoning: true },
    signal: new AbortController().signal,
    limits: DEFAULT_AGENT_LIMITS,
    setup,
  });
}

describe("prepareRun", () => {
  test("the project's model, the window its endpoint reports, the new message last, the run's own messages left out", async () => {
    model.mode({ contextWindow: 50_000 });
    const input = await prepare();
    expect(input.model).toBe("fake-model");
    expect(input.limits.contextTokens).toBe(50_000);
    expect(input.messages[0]!.role).toBe("system");
    expect(input.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["Build it"]);
    expect(input.enableReasoning).toBe(true);
    expect(input.tools.map((t) => t.name)).toContain("write_file");
    expect(await input.toolContext.files.list()).toEqual([{ path: "src/App.tsx", size: 9 }]);
  });

  test("a configured window is kept as it is", async () => {
    model.mode({ contextWindow: 50_000 });
    expect((await prepare({ contextTokensConfigured: true })).limits.contextTokens).toBe(DEFAULT_AGENT_LIMITS.contextTokens);
  });

  test("with MODEL_MAX_OUTPUT_TOKENS unset the output limit is about a quarter of a small window, at least 1,024; set, it is kept", async () => {
    model.mode({ contextWindow: 8_192 });
    expect((await prepare()).limits.maxOutputTokens).toBe(2_048);
    model.mode({ contextWindow: 2_048 });
    expect((await prepare()).limits.maxOutputTokens).toBe(1_024);
    model.mode({ contextWindow: 200_000 });
    expect((await prepare()).limits.maxOutputTokens).toBe(DEFAULT_AGENT_LIMITS.maxOutputTokens);
    model.mode({ contextWindow: 8_192 });
    expect((await prepare({ maxOutputTokensConfigured: true })).limits.maxOutputTokens).toBe(DEFAULT_AGENT_LIMITS.maxOutputTokens);
  });

  test("the app is checked before the run ends only when the project has an app", async () => {
    expect((await prepare()).beforeFinish).toBeUndefined();
    const withApp = await prepare({ withApp: true });
    expect(withApp.beforeFinish).toBeDefined();
    // Nothing changed yet in this run: the check has nothing to say.
    expect(await withApp.beforeFinish!({ step: () => {}, signal: new AbortController().signal })).toBeNull();
  });
});
