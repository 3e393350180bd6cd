/**
 * The key project secrets are sealed under (lib/secret-box.ts): SECRETS_KEY, the base64 of 32 bytes. The
 * embedded default (no DATABASE_URL) makes one once into DATA_DIR/secrets.key. With DATABASE_URL set every
 * instance sharing the database must seal with the same key, so a missing SECRETS_KEY stops start-up.
 *
 * @example
 * secretsConfig(e, "/srv/data", false); // { kind: "file", file: "/srv/data/secrets.key" }
 */
import { resolve } from "node:path";
import type { z } from "zod";
import { parseSecretsKey } from "../secret-box";
import { ConfigError, optionalString } from "./values";

export const secretsEnv = {
  SECRETS_KEY: optionalString,
};

/** `key`: SECRETS_KEY's bytes; `file`: where the embedded default keeps (and first makes) its key. */
export type SecretsConfig = { kind: "key"; key: Buffer } | { kind: "file"; file: string };

export function secretsConfig(e: z.infer<z.ZodObject<typeof secretsEnv>>, dataDir: string, sharedDatabase: boolean): SecretsConfig {
  if (e.SECRETS_KEY) {
    try {
      return { kind: "key", key: parseSecretsKey(e.SECRETS_KEY) };
    } catch (error) {
      throw new ConfigError(`SECRETS_KEY ${(error as Error).message}.`);
    }
  }
  if (sharedDatabase) {
    throw new ConfigError(
      "SECRETS_KEY is not set but DATABASE_URL is: every instance sharing the database must seal project secrets with the same key. " +
        "Set SECRETS_KEY to the same base64 of 32 random bytes on every instance (make one with: openssl rand -base64 32).",
    );
  }
  return { kind: "file", file: resolve(dataDir, "secrets.key") };
}
