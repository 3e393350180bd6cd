/** Public system routes: the SPA's run-time config, liveness and readiness. */
import { hostname } from "node:os";
import { Hono } from "hono";
import type { AppDeps } from "../app-env";
import type { Config } from "../lib/config";

/** Which process answered: behind a load balancer, tells instances apart (matches `docker ps` names). */
export const INSTANCE = `${hostname()}-${process.pid}`;

const CHECK_TIMEOUT_MS = 3000;
const MODEL_TIMEOUT_MS = 2000;

export const systemRoutes = (deps: AppDeps) =>
  new Hono()
    .get("/config", (c) => c.json(deps.publicConfig))
    .get("/health", (c) => c.json({ status: "ok", instance: INSTANCE }))
    .get("/ready", async (c) => {
      const check = async (fn: () => Promise<unknown>) => {
        try {
          await withTimeout(fn(), CHECK_TIMEOUT_MS);
          return "ok" as const;
        } catch (error) {
          deps.logger.warn("readiness check failed", { error: String(error) });
          return "unreachable" as const;
        }
      };
      const [database, storage, model] = await Promise.all([
        check(() => deps.sql`select 1`),
        check(() => deps.store.ping()),
        checkModel(deps.config.model, deps.logger),
      ]);
      // The model is reported but does not decide readiness: an unreachable model endpoint is the same for
      // every instance, so taking instances out of rotation would not help, and projects, files, previews and
      // terminals keep working without it (chat answers with a clear error until it is back).
      const ready = database === "ok" && storage === "ok";
      return c.json({ status: ready ? "ready" : "not_ready", database, storage, model }, ready ? 200 : 503);
    });

/** `GET <baseUrl>/models`, which every OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio) answers. */
async function checkModel(model: Config["model"], logger: AppDeps["logger"]): Promise<"ok" | "unreachable" | "not_configured"> {
  if (!model.configured) return "not_configured";
  const base = (model.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  try {
    const res = await fetch(`${base}/models`, {
      headers: { authorization: `Bearer ${model.apiKey}` },
      signal: AbortSignal.timeout(MODEL_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.ok) return "ok";
    logger.warn("model endpoint check failed", { status: res.status });
    return "unreachable";
  } catch (error) {
    logger.warn("model endpoint check failed", { error: String(error) });
    return "unreachable";
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms))]);
}
