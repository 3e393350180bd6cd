/**
 * The value parsers every area of the configuration shares, and the one error a bad setting throws. Each
 * parser reads an optional string (as the environment holds it) and names the problem in zod's issue, which
 * loadConfig prefixes with the variable's name.
 *
 * @example
 * const poolEnv = { DATABASE_POOL_MAX: positiveInt(10) }; // unset or "" → 10, "0" or "ten" → an issue
 */
import { z } from "zod";

export class ConfigError extends Error {}

/** Trimmed; unset and blank both read as undefined. */
export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

export const boolString = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .optional()
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** A whole number of at least `min`; unset or blank gives `fallback`. */
const wholeNumber = (fallback: number, min: number, expected: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: "custom", message: `${expected}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

export const positiveInt = (fallback: number) => wholeNumber(fallback, 1, "must be a positive whole number");

/** A count where 0 switches the limit off. */
export const countOrOff = (fallback: number) => wholeNumber(fallback, 0, "must be a whole number (0 switches the limit off)");
