/**
 * A project's secrets on the wire (`/api/projects/{id}/secrets…`): the rules a name and a value must meet,
 * the PUT body, and the list's shape (names and times only: a value never leaves the server).
 */
import { z } from "zod";

/** Names as environment variables spell them: upper-case letters, digits and `_`, not starting with a digit. */
export const SECRET_NAME_PATTERN = /^[A-Z_][A-Z0-9_]{0,63}$/;
/** Names the system sets in every sandbox process: a secret may not replace them. */
export const RESERVED_SECRET_NAMES = ["DATABASE_URL", "PORT", "HOME", "PATH", "NODE_ENV", "HOST"] as const;
export const MAX_SECRET_VALUE_BYTES = 32 * 1024;
export const MAX_SECRETS_PER_PROJECT = 100;
/** Shorter values are too likely to occur by chance to be hidden from the model (`[secret NAME]`). */
export const MIN_REDACTED_SECRET_LENGTH = 6;

/** Why `name` cannot name a secret, in words for the user; null when it can. */
export function secretNameProblem(name: string): string | null {
  if (!SECRET_NAME_PATTERN.test(name)) {
    return "A secret name is 1–64 upper-case letters, digits or _, not starting with a digit (for example OPENWEATHER_API_KEY).";
  }
  if ((RESERVED_SECRET_NAMES as readonly string[]).includes(name)) return `${name} is set by the system in every sandbox process; choose another name.`;
  return null;
}

/** Why `value` cannot be stored, in words for the user; null when it can. */
export function secretValueProblem(value: string): string | null {
  if (value.length === 0) return "The value is empty; type the secret's value.";
  if (new TextEncoder().encode(value).length > MAX_SECRET_VALUE_BYTES) return `A secret's value is at most ${MAX_SECRET_VALUE_BYTES / 1024} KB.`;
  if (value.includes("\0")) return "A secret's value cannot contain a NUL character.";
  return null;
}

export const putSecretSchema = z.object({ value: z.string() });
export type PutSecret = z.infer<typeof putSecretSchema>;

export type { SecretInfo } from "./responses";
