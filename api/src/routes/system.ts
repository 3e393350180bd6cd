/** Public system routes: the SPA's run-time config, liveness and readiness. */
import { Hono } from "hono";
import type { AppDeps } from "../app-env";
import { INSTANCE_ID as INSTANCE } from "../lib/instance";
import { checkReadiness } from "../services/readiness";

export const systemRoutes = (deps: AppDeps) =>
  new Hono()
    .get("/config", (c) => c.json(deps.publicConfig))
    .get("/health", (c) => c.json({ status: "ok", instance: INSTANCE }))
    .get("/ready", async (c) => {
      // Draining (SIGTERM): out of rotation at once, whatever the database and storage say.
      if (deps.drain.draining) return c.json({ status: "draining", instance: INSTANCE }, 503);
      const report = await checkReadiness({ ...deps, hostLimits: deps.sandboxes.hostLimits() });
      return c.json(report, report.status === "ready" ? 200 : 503);
    });
