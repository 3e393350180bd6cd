/** The agent's limits come from the configuration (MODEL_MAX_OUTPUT_TOKENS, AGENT_IDLE_TIMEOUT_S…) when nothing overrides them. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readEvents } from "./test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "./test/fake-model-server";
import { testApp } from "./test/test-app";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

describe("agent configuration", () => {
  test("MODEL_MAX_OUTPUT_TOKENS is sent as max_tokens; AGENT_IDLE_TIMEOUT_S ends a silent model", async () => {
    const t = await testApp({
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k", OPENAI_MODEL: "fake-model", MODEL_MAX_OUTPUT_TOKENS: "777", AGENT_IDLE_TIMEOUT_S: "1" },
    });
    try {
      const user = t.user("cfg");
      const res = await user.request("POST", "/api/projects", { name: "Cfg" });
      const { id: projectId } = (await res.json()) as { id: string };
      // Silent before any text: retried (3 times by default), each attempt ended by the 1 s idle time-out.
      model.enqueue(...Array.from({ length: 4 }, () => turn.steps({ hang: true })));
      const started = Date.now();
      const events = await readEvents(await user.request("POST", "/api/messages/stream", { projectId, content: "hi" }));
      expect(model.requests[0]!.body.max_tokens).toBe(777);
      expect(events.find((e) => e.type === "error")).toMatchObject({ message: expect.stringContaining("stopped sending data for 1 s") });
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await t.deps.runs.shutdown();
      await t.deps.sandboxes.shutdown();
    }
  }, 60_000);
});
