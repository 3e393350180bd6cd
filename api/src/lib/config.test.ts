import { describe, expect, test } from "bun:test";
import { ConfigError, describeConfig, isKnownVisionModel, loadConfig } from "./config";

const load = (env: Record<string, string>) => loadConfig(env);
const failure = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
};

describe("loadConfig", () => {
  test("nothing set gives the embedded defaults", () => {
    const c = load({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe("127.0.0.1");
    expect(c.database.kind).toBe("embedded");
    expect(c.database.kind === "embedded" && c.database.dir.endsWith("/data/pg")).toBe(true);
    expect(c.storage.kind).toBe("local");
    expect(c.sandbox.provider).toBe("local");
    expect(c.model.configured).toBe(false);
    expect(c.auth).toMatchObject({ mode: "emulator", startLocalEmulator: true, emulatorHost: "127.0.0.1:9099" });
  });

  test("each production variable switches its part", () => {
    const c = load({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATA_DIR: "/srv/app",
      DATABASE_URL: "postgres://u:pw@db:5432/app",
      S3_BUCKET: "files",
      S3_ENDPOINT: "http://minio:9000",
      S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: "k",
      AWS_SECRET_ACCESS_KEY: "s",
      SANDBOX_PROVIDER: "e2b",
      E2B_API_KEY: "e2b_x",
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_MODEL: "qwen2.5-coder",
      FIREBASE_PROJECT_ID: "my-proj",
      FIREBASE_API_KEY: "AIza",
    });
    expect(c.port).toBe(8080);
    expect(c.database).toEqual({ kind: "postgres", url: "postgres://u:pw@db:5432/app", poolMax: 10, queryTimeoutMs: 5000 });
    expect(c.storage).toMatchObject({ kind: "s3", bucket: "files", endpoint: "http://minio:9000", forcePathStyle: true, region: "us-east-1" });
    expect(c.sandbox).toEqual({ provider: "e2b", apiKey: "e2b_x" });
    expect(c.model).toEqual({ configured: true, baseUrl: "http://127.0.0.1:11434/v1", apiKey: "not-needed", model: "qwen2.5-coder" });
    expect(c.auth).toEqual({ mode: "firebase", projectId: "my-proj", apiKey: "AIza", authDomain: "my-proj.firebaseapp.com" });
  });

  test("agent and model limits: defaults, each variable, and vision guessed from the model's name unless set", () => {
    expect(load({}).agent).toEqual({ contextTokens: undefined, maxOutputTokens: 4096, vision: true, idleTimeoutMs: 180_000, maxRunMs: 1_200_000 });
    const c = load({
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_MODEL: "qwen2.5-coder:14b",
      MODEL_CONTEXT_TOKENS: "16384",
      MODEL_MAX_OUTPUT_TOKENS: "2048",
      AGENT_IDLE_TIMEOUT_S: "600",
      AGENT_MAX_RUN_S: "3600",
    });
    expect(c.agent).toEqual({ contextTokens: 16_384, maxOutputTokens: 2048, vision: false, idleTimeoutMs: 600_000, maxRunMs: 3_600_000 });
    expect(load({ OPENAI_BASE_URL: "http://x/v1", OPENAI_MODEL: "qwen2.5-coder:14b", MODEL_VISION: "true" }).agent.vision).toBe(true);
    expect(load({ OPENAI_API_KEY: "k", OPENAI_MODEL: "gpt-4o", MODEL_VISION: "false" }).agent.vision).toBe(false);
    expect(failure({ MODEL_CONTEXT_TOKENS: "lots" })).toContain("MODEL_CONTEXT_TOKENS");
    expect(failure({ AGENT_MAX_RUN_S: "0" })).toContain("AGENT_MAX_RUN_S");
    expect(failure({ MODEL_VISION: "maybe" })).toContain("MODEL_VISION");
    for (const name of ["gpt-4o-mini", "gpt-4.1", "claude-sonnet-4", "llava:13b", "qwen2.5vl:7b", "Qwen/Qwen2.5-VL-7B-Instruct", "llama3.2-vision", "gemma3:12b"]) {
      expect([name, isKnownVisionModel(name)]).toEqual([name, true]);
    }
    for (const name of ["qwen2.5-coder:14b", "llama3.1:8b", "deepseek-r1:14b", "o3-mini", "gpt-3.5-turbo", "fake-model"]) {
      expect([name, isKnownVisionModel(name)]).toEqual([name, false]);
    }
  });

  test("an existing emulator is used, not started", () => {
    expect(load({ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9199", FIREBASE_PROJECT_ID: "demo-x" }).auth).toMatchObject({
      mode: "emulator",
      projectId: "demo-x",
      emulatorHost: "127.0.0.1:9199",
      startLocalEmulator: false,
    });
  });

  test("bad or contradictory settings name the variable", () => {
    expect(failure({ PORT: "eighty" })).toContain("PORT");
    expect(failure({ DATABASE_URL: "mysql://x" })).toContain("DATABASE_URL");
    expect(failure({ SANDBOX_PROVIDER: "docker" })).toContain("SANDBOX_PROVIDER");
    expect(failure({ SANDBOX_PROVIDER: "e2b" })).toContain("E2B_API_KEY");
    expect(failure({ S3_ENDPOINT: "http://minio:9000" })).toContain("S3_BUCKET");
    expect(failure({ S3_BUCKET: "b", AWS_ACCESS_KEY_ID: "k" })).toContain("AWS_SECRET_ACCESS_KEY");
    expect(failure({ FIREBASE_PROJECT_ID: "real-proj" })).toContain("FIREBASE_API_KEY");
    expect(failure({ FIREBASE_PROJECT_ID: "demo-x", FIREBASE_API_KEY: "k" })).toContain("FIREBASE_AUTH_EMULATOR_HOST");
    expect(failure({ FIREBASE_AUTH_EMULATOR_HOST: "http://127.0.0.1:9099" })).toContain("FIREBASE_AUTH_EMULATOR_HOST");
    // Emulator mode beside a real project, or with an emulator elsewhere on the network, is refused.
    for (const env of <Record<string, string>[]>[
      { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", FIREBASE_PROJECT_ID: "my-real-project" },
      { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", FIREBASE_PROJECT_ID: "demo-x", FIREBASE_API_KEY: "AIza" },
    ]) {
      const message = failure(env);
      expect(message).toContain("FIREBASE_AUTH_EMULATOR_HOST");
      expect(message).toMatch(/FIREBASE_PROJECT_ID|FIREBASE_API_KEY/);
    }
    expect(failure({ FIREBASE_AUTH_EMULATOR_HOST: "10.0.0.5:9099", FIREBASE_PROJECT_ID: "demo-x" })).toMatch(/FIREBASE_AUTH_EMULATOR_HOST=10\.0\.0\.5:9099 is not a loopback[\s\S]*FIREBASE_PROJECT_ID/);
    expect(load({ FIREBASE_AUTH_EMULATOR_HOST: "localhost:9099", FIREBASE_PROJECT_ID: "demo-x" }).auth.mode).toBe("emulator");
    expect(failure({ OPENAI_MODEL: "gpt-4o" })).toContain("OPENAI_API_KEY");
    expect(failure({ HOST: "0.0.0.0" })).toContain("HOST");
  });

  test("the start-up summary names each part and never a secret", () => {
    const lines = describeConfig(
      load({ DATABASE_URL: "postgres://u:hunter2@db/app", S3_BUCKET: "b", AWS_ACCESS_KEY_ID: "AKIA", AWS_SECRET_ACCESS_KEY: "topsecret", OPENAI_API_KEY: "sk-123" }),
    ).join("\n");
    expect(lines).toContain("database: PostgreSQL at postgres://u:***@db/app");
    expect(lines).toContain('S3 bucket "b"');
    expect(lines).toContain("sign-in:  EMULATED");
    for (const secret of ["hunter2", "topsecret", "sk-123", "AKIA"]) expect(lines).not.toContain(secret);
  });
});
