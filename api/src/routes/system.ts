/** Public system routes: the SPA's run-time config, liveness and readiness. */
import { Hono } from "hono";
import type { AppDeps } from "../app-env";

export const systemRoutes = (deps: AppDeps) =>
  new Hono()
    .get("/config", (c) => c.json(deps.publicConfig))
    .get("/health", (c) => c.json({ status: "ok" }))
    .get("/ready", async (c) => {
      const check = async (fn: () => Promise<unknown>) => {
        try {
          await withTimeout(fn(), 3000);
          return "ok" as const;
        } catch (error) {
          deps.logger.warn("readiness check failed", { error: String(error) });
          return "unreachable" as const;
        }
      };
      const [database, storage] = await Promise.all([check(() => deps.sql`select 1`), check(() => deps.store.ping())]);
      const ready = database === "ok" && storage === "ok";
      return c.json({ status: ready ? "ready" : "not_ready", database, storage }, ready ? 200 : 503);
    });

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms))]);
}
