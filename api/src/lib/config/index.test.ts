import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

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
      SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
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
    expect(c.model).toEqual({
      configured: true,
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: "not-needed",
      model: "qwen2.5-coder",
      models: ["qwen2.5-coder"],
    });
    expect(c.auth).toEqual({ mode: "firebase", projectId: "my-proj", apiKey: "AIza", authDomain: "my-proj.firebaseapp.com" });
  });

  test("bad or contradictory settings name the variable", () => {
    expect(failure({ PORT: "eighty" })).toContain("PORT");
    expect(failure({ DATABASE_URL: "mysql://x" })).toContain("DATABASE_URL");
    expect(failure({ SANDBOX_PROVIDER: "docker" })).toContain("SANDBOX_PROVIDER");
    expect(failure({ SANDBOX_PROVIDER: "e2b" })).toContain("E2B_API_KEY");
    expect(failure({ S3_ENDPOINT: "http://minio:9000" })).toContain("S3_BUCKET");
    expect(failure({ S3_BUCKET: "b", AWS_ACCESS_KEY_ID: "k" })).toContain("AWS_SECRET_ACCESS_KEY");
    expect(failure({ OPENAI_MODEL: "gpt-4o" })).toContain("OPENAI_API_KEY");
  });
});
