/**
 * A project's secrets as listed: names and times, never values.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

/** A project's secrets: names and times, never values. */
export const secretInfoSchema = z.object({ name: z.string(), updatedAt: z.string() });
export type SecretInfo = z.infer<typeof secretInfoSchema>;
export const secretListSchema = z.array(secretInfoSchema);
