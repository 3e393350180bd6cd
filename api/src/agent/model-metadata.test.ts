/** The context window, learned from what the endpoint says about itself. */
import { grantedAccess } from "../test/access";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { silentLogger } from "../lib/logger";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { memoryRunStore, memoryWorkspace } from "../test/memory-workspace";
import { createModelClient } from "./model-client";
import { runModelTurn } from "./model-stream";
import { createRunManager } from "./runs";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const ask = (client: ReturnType<typeof createModelClient>, enableReasoning = false, name = "fake-model") =>
  runModelTurn({
    client,
    model: name,
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    enableReasoning,
    maxOutputTokens: 512,
    signal: new AbortController().signal,
    idleTimeoutMs: 2_000,
    maxRetries: 0,
    maxRetryWaitMs: 0,
    backoffBaseMs: 1,
    onText: () => {},
    onThinking: () => {},
  });

describe("endpoint metadata", () => {
  test("a /v1/models entry with context_length gives the window; a server that reports none gives null", async () => {
    model.mode({ contextWindow: 8_192 });
    expect(await createModelClient({ baseUrl: model.baseUrl, apiKey: "k" }).contextWindow!("fake-model")).toBe(8_192);
    model.mode({});
    expect(await createModelClient({ baseUrl: model.baseUrl, apiKey: "k" }).contextWindow!("fake-model")).toBeNull();
    // OpenAI's own API is never asked.
    let asked = 0;
    const client = createModelClient({ apiKey: "k" }, (async () => {
      asked++;
      return new Response("{}");
    }) as unknown as typeof fetch);
    expect(await client.contextWindow!("gpt-4o")).toBeNull();
    expect(asked).toBe(0);
  });

  test("Ollama: the window it runs the loaded model with (/api/ps), else a Modelfile's num_ctx, else the trained window", async () => {
    const ollama = createModelClient({ baseUrl: model.baseUrl, apiKey: "k" });
    model.mode({ ollama: { contextLength: 40_960 } });
    expect(await ollama.contextWindow!("fake-model")).toBe(40_960);
    // Loaded later with OLLAMA_CONTEXT_LENGTH=8192: asked again, not remembered from before.
    model.mode({ ollama: { contextLength: 40_960, running: 8_192 } });
    expect(await ollama.contextWindow!("fake-model")).toBe(8_192);
    expect(await ollama.contextWindow!("fake-model:latest")).toBe(8_192);
    expect(await ollama.contextWindow!("other-model")).toBe(40_960);
    model.mode({ ollama: { contextLength: 40_960, numCtx: 12_288 } });
    expect(await createModelClient({ baseUrl: model.baseUrl, apiKey: "k" }).contextWindow!("fake-model")).toBe(12_288);
  });

  test("Ollama: a model it unloaded after idling keeps the window it last ran with, not the trained one", async () => {
    const ollama = createModelClient({ baseUrl: model.baseUrl, apiKey: "k" });
    model.mode({ ollama: { contextLength: 40_960, running: 16_384 } });
    expect(await ollama.contextWindow!("fake-model")).toBe(16_384);
    model.mode({ ollama: { contextLength: 40_960 } });
    expect(await ollama.contextWindow!("fake-model")).toBe(16_384);
  });

  test("no window goes with the request: Ollama's OpenAI-compatible endpoint ignores `options`, so none is sent", async () => {
    model.mode({ ollama: { contextLength: 40_960 } });
    model.enqueue(turn.text("ok"));
    await ask(createModelClient({ baseUrl: model.baseUrl, apiKey: "k" }));
    expect(model.requests[0]!.body.options).toBeUndefined();
    expect(model.requests[0]!.body.max_tokens).toBe(512);
  });

  test("a run uses the endpoint's window unless MODEL_CONTEXT_TOKENS was set", async () => {
    for (const [configured, expected] of [
      [false, 16_384],
      [true, 12_000],
    ] as const) {
      model.reset();
      model.mode({ ollama: { contextLength: 40_960, running: 16_384 } });
      model.enqueue(turn.text("ok"));
      const runs = memoryRunStore({ p1: { ownerId: "alice", name: "Todo" } });
      const manager = createRunManager({
        store: runs.store,
        conversations: runs.store,
        workspaces: { forProject: () => memoryWorkspace() },
        model: { client: createModelClient({ baseUrl: model.baseUrl, apiKey: "k" }), name: "fake-model" },
        search: { kind: "none" },
        logger: silentLogger,
        agent: { contextTokensConfigured: configured, limits: { contextTokens: 12_000 } },
      });
      const run = await manager.start(grantedAccess("alice", "p1"), { projectId: "p1", content: "hello" });
      expect(await run.finished).toBe("complete");
      expect((await manager.contextUsage(grantedAccess("alice", "p1"))).contextTokens).toBe(expected);
    }
  });
});

describe("the reasoning toggle on Ollama", () => {
  test("off: Ollama is asked not to think (reasoning_effort none); on, or another server: nothing is sent", async () => {
    model.mode({ ollama: { contextLength: 40_960 } });
    model.enqueue(turn.text("ok"), turn.text("ok"));
    const ollama = createModelClient({ baseUrl: model.baseUrl, apiKey: "k" });
    await ask(ollama, false);
    await ask(ollama, true);
    expect(model.requests.map((r) => r.body.reasoning_effort)).toEqual(["none", undefined]);

    model.reset();
    model.enqueue(turn.text("ok"));
    await ask(createModelClient({ baseUrl: model.baseUrl, apiKey: "k" }), false);
    expect(model.requests[0]!.body.reasoning_effort).toBeUndefined();
  });

  test("an Ollama that refuses reasoning_effort answers the same turn without it, and is not asked again", async () => {
    model.mode({ ollama: { contextLength: 40_960, noReasoningEffort: true } });
    model.enqueue(turn.text("first"), turn.text("second"));
    const ollama = createModelClient({ baseUrl: model.baseUrl, apiKey: "k" });
    expect((await ask(ollama)).text).toBe("first");
    expect((await ask(ollama)).text).toBe("second");
    expect(model.requests.map((r) => r.body.reasoning_effort)).toEqual(["none", undefined, undefined]);
    // Another model on the same client is still asked: the refusal was that model's.
    model.enqueue(turn.text("third"));
    expect((await ask(ollama, false, "other-model")).text).toBe("third");
    expect(model.requests.slice(3).map((r) => r.body.reasoning_effort)).toEqual(["none", undefined]);
  });
});
