/**
 * The process's Prometheus metrics, through prom-client (the Prometheus client every Node/Bun service uses):
 * its default process metrics (CPU, resident memory, heap, event-loop lag, open file descriptors) and a
 * correct text exposition, plus the app's own families below. One registry per process, served on
 * METRICS_PORT (metrics-server.ts), never on the public port.
 *
 * Labels are always from a small fixed set (route patterns, outcomes, kinds, status classes), never raw
 * paths, hosts or ids, so the number of series stays small.
 *
 * @example
 * gauge("app_websocket_clients", "File-event WebSocket clients connected to this process.", () => hub.clientCount());
 * sandboxMetrics.starts.inc({ provider: "local" });
 * const text = await registry.metrics(); // what GET /metrics on METRICS_PORT answers
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { INSTANCE_ID } from "./instance";

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Upper bounds in seconds. Chat streams are counted when their response starts, not when they end. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Sandbox starts and model waits: from a warm start (sub-second) to a cold install (a minute or more). */
const SLOW_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
/** Whole agent runs: seconds to half an hour. */
const RUN_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800];

const registers = [registry];

const httpRequests = new Counter({
  name: "http_requests_total",
  help: "HTTP requests answered by the app, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  registers,
});
const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time until the app's response started, by method and route pattern.",
  labelNames: ["method", "route"] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});

/** One request the Hono app answered; `route` is the registered pattern (`/api/files/:projectId`) or `*`. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, seconds);
}

/** Sandbox starts through a provider (`provider` = local | e2b): every start, the failed ones, and how long. */
export const sandboxMetrics = {
  starts: new Counter({ name: "app_sandbox_starts_total", help: "Sandbox starts attempted, by provider.", labelNames: ["provider"] as const, registers }),
  failures: new Counter({
    name: "app_sandbox_start_failures_total",
    help: "Sandbox starts that failed, by provider.",
    labelNames: ["provider"] as const,
    registers,
  }),
  startSeconds: new Histogram({
    name: "app_sandbox_start_duration_seconds",
    help: "Time to start a sandbox (successful starts), by provider.",
    labelNames: ["provider"] as const,
    buckets: SLOW_BUCKETS,
    registers,
  }),
};

/** Agent runs and the model requests they make. */
export const runMetrics = {
  finished: new Counter({
    name: "app_runs_total",
    help: "Agent runs finished, by outcome (complete, stopped, failed).",
    labelNames: ["outcome"] as const,
    registers,
  }),
  duration: new Histogram({
    name: "app_run_duration_seconds",
    help: "Agent run duration from start to finish, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: RUN_BUCKETS,
    registers,
  }),
  tokens: new Counter({
    name: "app_run_tokens_total",
    help: "Model tokens used by finished agent runs, by type (input, output).",
    labelNames: ["type"] as const,
    registers,
  }),
  timeToFirstToken: new Histogram({
    name: "app_model_time_to_first_token_seconds",
    help: "Time from sending a model request to its first streamed text or reasoning.",
    buckets: SLOW_BUCKETS,
    registers,
  }),
  modelErrors: new Counter({
    name: "app_model_errors_total",
    help: "Failed model requests (each attempt, retried or not), by kind (timeout, rate_limited, connection, server, context_length, client).",
    labelNames: ["kind"] as const,
    registers,
  }),
  queueWait: new Histogram({
    name: "app_model_queue_wait_seconds",
    help: "Time a model request waited in the MODEL_MAX_CONCURRENCY queue (only observed when the queue is on).",
    buckets: SLOW_BUCKETS,
    registers,
  }),
};

/** The agent's metrics port (agent/agent-metrics.ts), written to the families above. */
export const agentMetrics = {
  runFinished(outcome: string, seconds: number, usage: { promptTokens: number; completionTokens: number } | null) {
    runMetrics.finished.inc({ outcome });
    runMetrics.duration.observe({ outcome }, seconds);
    if (usage) {
      runMetrics.tokens.inc({ type: "input" }, usage.promptTokens);
      runMetrics.tokens.inc({ type: "output" }, usage.completionTokens);
    }
  },
  modelError: (kind: string) => runMetrics.modelErrors.inc({ kind }),
  firstToken: (seconds: number) => runMetrics.timeToFirstToken.observe(seconds),
  queueWait: (seconds: number) => runMetrics.queueWait.observe(seconds),
};

/** Requests on preview hosts and published sites (`kind` = preview | site), by status class (2xx, 4xx, 101 for upgrades…). */
export const proxyMetrics = {
  requests: new Counter({
    name: "app_proxy_requests_total",
    help: "Requests on preview hosts and published sites, by kind (preview, site) and status class.",
    labelNames: ["kind", "status_class"] as const,
    registers,
  }),
  duration: new Histogram({
    name: "app_proxy_request_duration_seconds",
    help: "Time until a preview or site response started, by kind (preview, site).",
    labelNames: ["kind"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  }),
};

/** "2xx", "4xx"…; a WebSocket upgrade (no response) is "1xx". */
export const statusClass = (status: number | undefined) => `${Math.floor((status ?? 101) / 100)}xx`;

type GaugeSource = { read: () => number | Promise<number>; labels: Record<string, string> };
const gaugeSources = new Map<string, GaugeSource>();

/**
 * A gauge read at scrape time (a reader may be async). Registering a name again replaces its reader (the last app built in this
 * process wins, as tests build several). A reader that throws reports 0.
 */
export function gauge(name: string, help: string, read: () => number | Promise<number>, labels: Record<string, string> = {}): void {
  const fresh = !gaugeSources.has(name);
  gaugeSources.set(name, { read, labels });
  if (!fresh) return;
  new Gauge({
    name,
    help,
    labelNames: Object.keys(labels),
    registers,
    async collect() {
      const source = gaugeSources.get(name)!;
      let value = 0;
      try {
        value = await source.read();
      } catch {}
      this.set(source.labels, value);
    },
  });
}

/** The label naming this process on per-instance gauges (also shown on the admin page). */
export const instanceLabel = { instance: INSTANCE_ID };
