/**
 * Sealing short secrets at rest with AES-256-GCM (a fresh 96-bit nonce per seal, the 128-bit tag checked on
 * open), under one 32-byte key: SECRETS_KEY, or a key made once into DATA_DIR for the embedded default.
 * `context` binds a sealed value to where it belongs (a project and a name), so one copied to another row
 * does not open. Project secrets use it; git credentials can too.
 *
 * @example
 * const box = createSecretBox(loadOrCreateKeyFile("data/secrets.key"));
 * const sealed = box.seal("sk-live-123", "project-id/API_KEY"); // "v1.<base64>"
 * box.open(sealed, "project-id/API_KEY"); // "sk-live-123"; a wrong key, context or any changed byte throws
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const SECRET_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = "v1.";

/** A sealed value that does not open: another key, another context, or changed bytes. */
export class SecretOpenError extends Error {}

export type SecretBox = {
  seal(plaintext: string, context?: string): string;
  /** The plaintext; throws SecretOpenError when the key, the context or the bytes are not the ones sealed. */
  open(sealed: string, context?: string): string;
};

/** The key from its base64 form (as SECRETS_KEY holds it); throws naming what is wrong. */
export function parseSecretsKey(base64: string): Buffer {
  const text = base64.trim();
  const key = Buffer.from(text, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== SECRET_KEY_BYTES) {
    throw new Error(`must be the base64 of exactly ${SECRET_KEY_BYTES} bytes (make one with: openssl rand -base64 32)`);
  }
  return key;
}

/**
 * The key kept in `file`: made (32 random bytes, base64, file mode 0600) the first time, read afterwards.
 * Two processes starting at once agree: the file is created exclusively, and the loser reads the winner's.
 */
export function loadOrCreateKeyFile(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(SECRET_KEY_BYTES).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  fs.chmodSync(file, 0o600);
  try {
    return parseSecretsKey(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(
      `The secrets key file ${file} is damaged (${(error as Error).message}); restore it from a backup (without it, stored secrets cannot be read).`,
    );
  }
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_KEY_BYTES) throw new Error(`a secrets key is ${SECRET_KEY_BYTES} bytes, got ${key.length}`);
  return {
    seal(plaintext, context = "") {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return VERSION + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64");
    },
    open(sealed, context = "") {
      if (!sealed.startsWith(VERSION)) throw new SecretOpenError("not a sealed secret (unknown format)");
      const bytes = Buffer.from(sealed.slice(VERSION.length), "base64");
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SecretOpenError("sealed secret is too short");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretOpenError("the sealed secret does not open with this key (SECRETS_KEY changed?) or was altered");
      }
    },
  };
}
