/** Public system routes: the SPA's run-time config, liveness and readiness. */
import { hostname } from "node:os";
import { Hono } from "hono";
import type { AppDeps } from "../app-env";
import { checkReadiness } from "../services/readiness";

/** Which process answered: behind a load balancer, tells instances apart (matches `docker ps` names). */
export const INSTANCE = `${hostname()}-${process.pid}`;

export const systemRoutes = (deps: AppDeps) =>
  new Hono()
    .get("/config", (c) => c.json(deps.publicConfig))
    .get("/health", (c) => c.json({ status: "ok", instance: INSTANCE }))
    .get("/ready", async (c) => {
      const report = await checkReadiness({ ...deps, hostLimits: deps.sandboxes.hostLimits() });
      return c.json(report, report.status === "ready" ? 200 : 503);
    });
