/**
 * Readiness (GET /api/ready): can this instance serve requests? The database and object storage decide; the
 * model endpoint is reported but does not, because an unreachable model is the same for every instance, so
 * taking instances out of rotation would not help, and projects, files, previews and terminals keep working
 * without it (chat answers with a clear error until it is back).
 *
 * @example
 * const report = await checkReadiness(deps);
 * return c.json(report, report.status === "ready" ? 200 : 503);
 */
import type { Sql } from "../db/client";
import type { Config } from "../lib/config";
import type { Logger } from "../lib/logger";
import type { HostLimits } from "../sandbox/types";
import type { ObjectStore } from "../storage/types";

const CHECK_TIMEOUT_MS = 3000;
const MODEL_TIMEOUT_MS = 2000;
/** How long one answer of the model endpoint stands for every later probe. */
export const MODEL_CHECK_TTL_MS = 60_000;

export type ReadinessReport = {
  status: "ready" | "not_ready";
  database: "ok" | "unreachable";
  storage: "ok" | "unreachable";
  model: "ok" | "unreachable" | "not_configured";
  /** Reported, never deciding: how this host bounds local sandboxes (absent on E2B). */
  details?: { sandboxLimits: { cgroups: HostLimits["cgroups"]; detail: string }; maxSandboxesPerHost: number };
};

export type ReadinessDeps = {
  sql: Sql;
  store: ObjectStore;
  logger: Logger;
  config: Pick<Config, "model">;
  /** The local provider's limits; a host without cgroups says so here, not only in a start-up line. */
  hostLimits?: HostLimits | null;
};

export async function checkReadiness(deps: ReadinessDeps, timeouts = { checkMs: CHECK_TIMEOUT_MS, modelMs: MODEL_TIMEOUT_MS }): Promise<ReadinessReport> {
  const check = async (fn: () => Promise<unknown>) => {
    try {
      await withTimeout(fn(), timeouts.checkMs);
      return "ok" as const;
    } catch (error) {
      deps.logger.warn("readiness check failed", { error: String(error) });
      return "unreachable" as const;
    }
  };
  const [database, storage, model] = await Promise.all([
    check(() => deps.sql`select 1`),
    check(() => deps.store.ping()),
    cachedModelCheck(deps.config.model, deps.logger, timeouts.modelMs),
  ]);
  const ready = database === "ok" && storage === "ok";
  const report: ReadinessReport = { status: ready ? "ready" : "not_ready", database, storage, model };
  const host = deps.hostLimits;
  if (host) report.details = { sandboxLimits: { cgroups: host.cgroups, detail: host.detail }, maxSandboxesPerHost: host.maxSandboxes };
  return report;
}

type ModelCheck = { at: number; result: Promise<ReadinessReport["model"]> };
// Keyed by the model configuration itself: one per running app, and a test's fresh config starts afresh.
const modelChecks = new WeakMap<Config["model"], ModelCheck>();

function cachedModelCheck(model: Config["model"], logger: Logger, timeoutMs: number): Promise<ReadinessReport["model"]> {
  const cached = modelChecks.get(model);
  if (cached && Date.now() - cached.at < MODEL_CHECK_TTL_MS) return cached.result;
  const result = checkModel(model, logger, timeoutMs);
  modelChecks.set(model, { at: Date.now(), result });
  return result;
}

/** `GET <baseUrl>/models`, which every OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio) answers. */
async function checkModel(model: Config["model"], logger: Logger, timeoutMs: number): Promise<ReadinessReport["model"]> {
  if (!model.configured) return "not_configured";
  const base = (model.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  try {
    const res = await fetch(`${base}/models`, {
      headers: { authorization: `Bearer ${model.apiKey}` },
      signal: AbortSignal.timeout(timeoutMs),
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
