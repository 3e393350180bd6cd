/** Public system routes: the SPA's run-time config, liveness and readiness. */
import { Hono } from "hono";
import type { AppDeps } from "../app-env";
import { INSTANCE } from "../lib/instance";
import { checkReadiness } from "../services/readiness";

export const systemRoutes = (deps: AppDeps) =>
  new Hono()
    .get("/config", (c) => c.json(deps.publicConfig))
    .get("/health", (c) => c.json({ status: "ok", instance: INSTANCE }))
    .get("/ready", async (c) => {
      const report = await checkReadiness(deps);
      return c.json(report, report.status === "ready" ? 200 : 503);
    });
