import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeModelServer, type FakeModelServer } from "../test/fake-model-server";
import { createModelClient } from "./model-client";
import { chooseModel, contextWindowOf, seesImages } from "./run-model";

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

describe("run model", () => {
  test("the project's choice while it is offered, else the default", () => {
    const client = createModelClient({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "k" });
    const setup = { client, name: "small", models: ["small", "large"] };
    expect(chooseModel(setup, "large")?.name).toBe("large");
    expect(chooseModel(setup, "gone")?.name).toBe("small");
    expect(chooseModel(setup, null)?.name).toBe("small");
    expect(chooseModel({ client, name: "only" }, "large")?.name).toBe("only");
  });

  test("the window: configured wins; else what the endpoint reports; else the fallback", async () => {
    const model = { client: createModelClient({ baseUrl: server.baseUrl, apiKey: "k" }), name: "fake-model" };
    server.mode({ contextWindow: 50_000 });
    expect(await contextWindowOf(model, { configured: false, fallback: 32_768 })).toBe(50_000);
    expect(await contextWindowOf(model, { configured: true, fallback: 32_768 })).toBe(32_768);
    server.reset();
    const unreachable = { client: createModelClient({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "k" }), name: "x" };
    expect(await contextWindowOf(unreachable, { configured: false, fallback: 8_192 })).toBe(8_192);
  });

  test("vision: a flag, a guess by name, or on when unset", () => {
    expect(seesImages(false, "gpt-4o")).toBe(false);
    expect(seesImages((m) => m.includes("vl"), "qwen2-vl")).toBe(true);
    expect(seesImages((m) => m.includes("vl"), "qwen2")).toBe(false);
    expect(seesImages(undefined, "anything")).toBe(true);
  });
});
