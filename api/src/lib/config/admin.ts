/**
 * Who runs the server: the people named by ADMIN_EMAILS see the admin page (`/admin`, `/api/admin/...`).
 * Matched case-insensitively against the caller's verified e-mail only, since an unverified address is a
 * claim anyone can make.
 *
 * @example
 * adminConfig({ ADMIN_EMAILS: "Ops@Example.com, me@example.com" }).adminEmails; // ["ops@example.com", "me@example.com"]
 */
import { z } from "zod";
import { optionalString } from "./values";

export const adminEnv = {
  ADMIN_EMAILS: optionalString.pipe(
    z
      .string()
      .optional()
      .refine((v) => v === undefined || v.split(",").every((e) => e.trim() === "" || /^[^\s@,]+@[^\s@,]+$/.test(e.trim())), {
        message: "must be e-mail addresses separated by commas, such as ops@example.com,me@example.com",
      }),
  ),
};

export type AdminConfig = { adminEmails: readonly string[] };

export function adminConfig(e: z.infer<z.ZodObject<typeof adminEnv>>): AdminConfig {
  const emails = (e.ADMIN_EMAILS ?? "")
    .split(",")
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
  return { adminEmails: [...new Set(emails)] };
}
