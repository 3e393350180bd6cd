/** Sealing secrets: round trips, and every way a sealed value must refuse to open. */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSecretBox, loadOrCreateKeyFile, parseSecretsKey, SecretOpenError } from "./secret-box";

const box = createSecretBox(randomBytes(32));

describe("secret box", () => {
  test("what is sealed opens again, with its context; unicode and empty values too", () => {
    for (const value of ["sk-live-123", "", "ключ 🔑", "x".repeat(32 * 1024)]) {
      const sealed = box.seal(value, "p1/API_KEY");
      expect(sealed.startsWith("v1.")).toBe(true);
      expect(sealed).not.toContain(value || "\0");
      expect(box.open(sealed, "p1/API_KEY")).toBe(value);
    }
  });

  test("another key does not open it", () => {
    const sealed = box.seal("sk-live-123", "p1/API_KEY");
    expect(() => createSecretBox(randomBytes(32)).open(sealed, "p1/API_KEY")).toThrow(SecretOpenError);
  });

  test("another context (a value copied to another project or name) does not open it", () => {
    const sealed = box.seal("sk-live-123", "p1/API_KEY");
    expect(() => box.open(sealed, "p2/API_KEY")).toThrow(SecretOpenError);
    expect(() => box.open(sealed, "p1/OTHER")).toThrow(SecretOpenError);
  });

  test("any changed byte (nonce, body or tag) is refused", () => {
    const sealed = box.seal("sk-live-123", "c");
    const bytes = Buffer.from(sealed.slice(3), "base64");
    for (const at of [0, 11, 12, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at]! ^= 1;
      expect(() => box.open(`v1.${tampered.toString("base64")}`, "c")).toThrow(SecretOpenError);
    }
    expect(() => box.open(`v1.${bytes.subarray(0, 20).toString("base64")}`, "c")).toThrow(SecretOpenError);
    expect(() => box.open("plain text", "c")).toThrow(SecretOpenError);
  });

  test("every seal takes a fresh nonce: the same value seals differently each time", () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 1000; i++) nonces.add(Buffer.from(box.seal("same", "c").slice(3), "base64").subarray(0, 12).toString("hex"));
    expect(nonces.size).toBe(1000);
  });

  test("SECRETS_KEY must be the base64 of 32 bytes", () => {
    const good = randomBytes(32).toString("base64");
    expect(parseSecretsKey(good).length).toBe(32);
    expect(() => parseSecretsKey(randomBytes(16).toString("base64"))).toThrow("exactly 32 bytes");
    expect(() => parseSecretsKey("not base64 at all!")).toThrow("exactly 32 bytes");
  });

  test("the embedded key is made once, 0600, and read back the same afterwards", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-key-"));
    try {
      const file = path.join(dir, "secrets.key");
      const first = loadOrCreateKeyFile(file);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(loadOrCreateKeyFile(file).equals(first)).toBe(true);
      fs.writeFileSync(file, "garbage");
      expect(() => loadOrCreateKeyFile(file)).toThrow("damaged");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
