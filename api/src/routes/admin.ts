/**
 * /api/admin/...: the admin page's API (issue 24, item 8). Mounted behind `requireAdmin`, so everyone who is
 * not an admin gets 404 on every route here. Lists users, what runs on each instance and the live sites; stops
 * an answer or a sandbox; disables and re-enables a user.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import type { UserGate } from "../services/users";
import * as admin from "../services/admin";

export const adminRoutes = (deps: AppDeps, gate: UserGate) => {
  const ctx: admin.AdminDeps = { ...deps, gate };
  return new Hono<AppEnv>()
    .get("/users", async (c) => c.json(await admin.listUsers(ctx)))
    .get("/running", async (c) => c.json(await admin.listRunning(ctx)))
    .get("/sites", async (c) => c.json(await admin.listSites(ctx)))
    .post("/users/:userId/disable", async (c) => {
      await admin.setUserDisabled(ctx, c.var.caller.uid, c.req.param("userId"), true);
      return c.json({ ok: true });
    })
    .post("/users/:userId/enable", async (c) => {
      await admin.setUserDisabled(ctx, c.var.caller.uid, c.req.param("userId"), false);
      return c.json({ ok: true });
    })
    .post("/runs/:projectId/stop", async (c) => c.json(await admin.stopRun(ctx, c.req.param("projectId"))))
    .post("/sandboxes/:projectId/stop", async (c) => c.json(await admin.stopSandbox(ctx, c.req.param("projectId"))));
};
