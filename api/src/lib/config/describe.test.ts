import { describe, expect, test } from "bun:test";
import { describeConfig, loadConfig as load } from "./index";

describe("describeConfig", () => {
  test("the start-up summary names each part and never a secret", () => {
    const lines = describeConfig(
      load({
        DATABASE_URL: "postgres://u:hunter2@db/app",
        SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
        INSTANCE_SECRET: "instance-secret-never-printed",
        S3_BUCKET: "b",
        AWS_ACCESS_KEY_ID: "AKIA",
        AWS_SECRET_ACCESS_KEY: "topsecret",
        OPENAI_API_KEY: "sk-123",
      }),
    ).join("\n");
    expect(lines).toContain("database: PostgreSQL at postgres://u:***@db/app");
    expect(lines).toContain('S3 bucket "b"');
    expect(lines).toContain("sign-in:  EMULATED");
    for (const secret of ["hunter2", "topsecret", "sk-123", "AKIA", "instance-secret-never-printed"]) expect(lines).not.toContain(secret);
  });

  test("the other models a project may choose follow the default", () => {
    expect(describeConfig(load({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", MODELS: "a,b" })).join("\n")).toContain('"a" (also b)');
  });
});
