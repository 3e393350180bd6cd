/** /api/auth/sync: stores the signed-in user's profile; /api/me: who the caller is, and whether an admin. */
import { syncUserSchema } from "@shared/schemas/user";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { isAdmin } from "../services/admin";
import { syncUser } from "../services/users";

export const authRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post("/sync", validate("json", syncUserSchema), async (c) => c.json(await syncUser(deps, c.var.caller, c.req.valid("json"))));

/** The admin page's link shows only for `admin: true`; the admin routes themselves check again. */
export const meRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().get("/", (c) => c.json({ id: c.var.caller.uid, email: c.var.caller.email, admin: isAdmin(deps.config, c.var.caller) }));
