import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { isKnownVisionModel, loadConfig as load } from "./index";

describe("agent configuration", () => {
  test("agent and model limits: defaults, each variable, and vision guessed from the model's name unless set", () => {
    expect(load({}).agent).toEqual({
      contextTokens: undefined,
      maxOutputTokens: undefined,
      vision: true,
      idleTimeoutMs: 180_000,
      maxRunMs: 1_200_000,
      repairRounds: 3,
      modelMaxConcurrency: 0,
    });
    const c = load({
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_MODEL: "qwen2.5-coder:14b",
      MODEL_CONTEXT_TOKENS: "16384",
      MODEL_MAX_OUTPUT_TOKENS: "2048",
      AGENT_IDLE_TIMEOUT_S: "600",
      AGENT_MAX_RUN_S: "3600",
      AGENT_REPAIR_ROUNDS: "0",
      MODEL_MAX_CONCURRENCY: "4",
    });
    expect(c.agent).toEqual({
      contextTokens: 16_384,
      maxOutputTokens: 2048,
      vision: false,
      idleTimeoutMs: 600_000,
      maxRunMs: 3_600_000,
      repairRounds: 0,
      modelMaxConcurrency: 4,
    });
    expect(failure({ MODEL_MAX_CONCURRENCY: "-1" })).toContain("MODEL_MAX_CONCURRENCY");
    expect(failure({ AGENT_REPAIR_ROUNDS: "three" })).toContain("AGENT_REPAIR_ROUNDS");
    expect([
      load({}).checkBrowser,
      load({ CHECK_BROWSER_PATH: "off" }).checkBrowser,
      load({ CHECK_BROWSER_PATH: " /opt/chrome/chrome " }).checkBrowser,
    ]).toEqual(["auto", "off", "/opt/chrome/chrome"]);
    expect(load({ OPENAI_BASE_URL: "http://x/v1", OPENAI_MODEL: "qwen2.5-coder:14b", MODEL_VISION: "true" }).agent.vision).toBe(true);
    expect(load({ OPENAI_API_KEY: "k", OPENAI_MODEL: "gpt-4o", MODEL_VISION: "false" }).agent.vision).toBe(false);
    expect(failure({ MODEL_CONTEXT_TOKENS: "lots" })).toContain("MODEL_CONTEXT_TOKENS");
    expect(failure({ AGENT_MAX_RUN_S: "0" })).toContain("AGENT_MAX_RUN_S");
    expect(failure({ MODEL_VISION: "maybe" })).toContain("MODEL_VISION");
    for (const name of [
      "gpt-4o-mini",
      "gpt-4.1",
      "claude-sonnet-4",
      "llava:13b",
      "qwen2.5vl:7b",
      "Qwen/Qwen2.5-VL-7B-Instruct",
      "llama3.2-vision",
      "gemma3:12b",
    ]) {
      expect([name, isKnownVisionModel(name)]).toEqual([name, true]);
    }
    for (const name of ["qwen2.5-coder:14b", "llama3.1:8b", "deepseek-r1:14b", "o3-mini", "gpt-3.5-turbo", "fake-model"]) {
      expect([name, isKnownVisionModel(name)]).toEqual([name, false]);
    }
  });

  test("vision: MODEL_VISION set applies to every model; unset, each model's name decides", () => {
    const endpoint = { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" };
    expect(load({ ...endpoint, MODELS: "gpt-4o,qwen2.5-coder:7b" }).agent).toMatchObject({ vision: true, visionSetting: undefined });
    expect(load({ ...endpoint, MODELS: "qwen2.5-coder:7b", MODEL_VISION: "true" }).agent).toMatchObject({ vision: true, visionSetting: true });
  });
});
