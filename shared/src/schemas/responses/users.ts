/**
 * The caller (`GET /api/me`) and the admin page's users, running work and live sites.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

/** The caller as the API sees them (`GET /api/me`): `admin` when ADMIN_EMAILS names their verified e-mail. */
export const meSchema = z.object({ id: z.string(), email: z.nullable(z.string()), admin: z.boolean() });
export type Me = z.infer<typeof meSchema>;

/** A user on the admin page (`GET /api/admin/users`): their projects, this UTC month's tokens, last sign-in. */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.nullable(z.string()),
  name: z.nullable(z.string()),
  createdAt: z.string(),
  lastSignInAt: z.nullable(z.string()),
  disabledAt: z.nullable(z.string()),
  tokensThisMonth: z.number(),
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = z.array(adminUserSchema);

const runningBase = {
  projectId: z.string(),
  projectName: z.string(),
  ownerId: z.string(),
  ownerEmail: z.nullable(z.string()),
  /** The instance holding it (`<hostname>-<pid>`, as GET /api/health names it); null when none was recorded. */
  instance: z.nullable(z.string()),
};

/** What runs on every instance (`GET /api/admin/running`); `instance` is the one that answered. */
export const adminRunningSchema = z.object({
  instance: z.string(),
  sandboxes: z.array(z.object({ ...runningBase, sandboxId: z.string(), usedAt: z.nullable(z.string()) })),
  answers: z.array(z.object({ ...runningBase, messageId: z.string(), startedAt: z.string(), updatedAt: z.string() })),
});
export type AdminRunning = z.infer<typeof adminRunningSchema>;

/** A live published site (`GET /api/admin/sites`). */
export const adminSiteSchema = z.object({
  projectId: z.string(),
  projectName: z.string(),
  ownerEmail: z.nullable(z.string()),
  slug: z.string(),
  url: z.string(),
  publishedAt: z.nullable(z.string()),
});
export type AdminSite = z.infer<typeof adminSiteSchema>;
export const adminSiteListSchema = z.array(adminSiteSchema);
