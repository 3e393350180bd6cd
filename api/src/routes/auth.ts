/** /api/auth/sync: stores the signed-in user's profile. */
import { syncUserSchema } from "@shared/schemas/user";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { syncUser } from "../services/users";

export const authRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post("/sync", validate("json", syncUserSchema), async (c) => c.json(await syncUser(deps, c.var.caller, c.req.valid("json"))));
