/** SECRETS_KEY: taken when valid, required with a shared database, a file under DATA_DIR otherwise. */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

const key = randomBytes(32);

describe("secrets config", () => {
  test("the embedded default keeps its key in DATA_DIR", () => {
    expect(load({ DATA_DIR: "/srv/app" }).secrets).toEqual({ kind: "file", file: "/srv/app/secrets.key" });
  });

  test("SECRETS_KEY is used as given, with or without a shared database", () => {
    expect(load({ SECRETS_KEY: key.toString("base64") }).secrets).toEqual({ kind: "key", key });
    expect(load({ SECRETS_KEY: ` ${key.toString("base64")} `, DATABASE_URL: "postgres://db/app", INSTANCE_SECRET: "0123456789abcdef" }).secrets).toEqual({
      kind: "key",
      key,
    });
  });

  test("DATABASE_URL without SECRETS_KEY stops start-up, naming SECRETS_KEY and why", () => {
    const message = failure({ DATABASE_URL: "postgres://db/app" });
    expect(message).toContain("SECRETS_KEY is not set");
    expect(message).toContain("same key");
  });

  test("a SECRETS_KEY that is not 32 bytes of base64 is refused", () => {
    expect(failure({ SECRETS_KEY: randomBytes(31).toString("base64") })).toContain("SECRETS_KEY must be the base64 of exactly 32 bytes");
    expect(failure({ SECRETS_KEY: "hunter2!" })).toContain("SECRETS_KEY");
  });
});
