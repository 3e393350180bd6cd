import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

describe("model choice, prices and the monthly budget", () => {
  const endpoint = { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" };

  test("MODELS lists the choices, first = default; unset, the single configured model is the only choice", () => {
    const c = load({ ...endpoint, MODELS: " qwen2.5-coder:7b , llama3.1:8b,gpt-4o " });
    expect(c.model).toMatchObject({ configured: true, model: "qwen2.5-coder:7b", models: ["qwen2.5-coder:7b", "llama3.1:8b", "gpt-4o"] });
    expect(load({ ...endpoint, OPENAI_MODEL: "m1" }).model).toMatchObject({ model: "m1", models: ["m1"] });
    expect(load({ OPENAI_API_KEY: "k" }).model).toMatchObject({ model: "gpt-4o-mini", models: ["gpt-4o-mini"] });
    // OPENAI_MODEL may name one of them; the default is still MODELS' first.
    expect(load({ ...endpoint, MODELS: "a,b", OPENAI_MODEL: "b" }).model).toMatchObject({ model: "a", models: ["a", "b"] });
  });

  test("bad MODELS stops start-up with a message naming it", () => {
    expect(failure({ ...endpoint, MODELS: "a,,b" })).toContain("MODELS: must be a comma-separated list");
    expect(failure({ ...endpoint, MODELS: "a,b,a" })).toContain('MODELS: lists "a" more than once');
    expect(failure({ MODELS: "a,b" })).toContain("MODELS is set but neither OPENAI_API_KEY nor OPENAI_BASE_URL");
    expect(failure({ ...endpoint, MODELS: "a,b", OPENAI_MODEL: "c" })).toContain("OPENAI_MODEL=c is not one of MODELS (a, b)");
  });

  test("MODEL_PRICES: model=input/output per 1M tokens; ids may hold ':' and '/'", () => {
    expect(load({}).modelPrices).toEqual({});
    expect(load({ MODEL_PRICES: "gpt-4o=2.5/10, qwen2.5-coder:7b=0/0,meta-llama/Llama-3.1-8B=0.05/0.08" }).modelPrices).toEqual({
      "gpt-4o": { input: 2.5, output: 10 },
      "qwen2.5-coder:7b": { input: 0, output: 0 },
      "meta-llama/Llama-3.1-8B": { input: 0.05, output: 0.08 },
    });
  });

  test("bad MODEL_PRICES stops start-up quoting the bad entry and the format", () => {
    for (const bad of ["gpt-4o", "gpt-4o=2.5", "gpt-4o=a/b", "gpt-4o=-1/2", "=1/2", "gpt-4o=1/2/3", "gpt-4o=1/"]) {
      const message = failure({ MODEL_PRICES: `qwen=0/0,${bad}` });
      expect(message).toContain(`MODEL_PRICES: entry "${bad}" must look like model=input/output`);
    }
  });

  test("USER_MONTHLY_TOKENS: 0 (none) by default, a whole number otherwise", () => {
    expect(load({}).userMonthlyTokens).toBe(0);
    expect(load({ USER_MONTHLY_TOKENS: "200000" }).userMonthlyTokens).toBe(200_000);
    expect(failure({ USER_MONTHLY_TOKENS: "lots" })).toContain("USER_MONTHLY_TOKENS");
    expect(failure({ USER_MONTHLY_TOKENS: "-5" })).toContain("USER_MONTHLY_TOKENS");
  });
});
