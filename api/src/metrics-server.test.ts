/**
 * The metrics port after real work, in process: HTTP requests by route pattern, agent runs through the fake
 * model server (outcome, duration, tokens, time to first token, a model error by kind, the model queue's
 * wait), and, where local sandboxes work, a sandbox start, a failed one (a full host) and a preview request to
 * a server inside it. The
 * public port answers 404 for /metrics. Figures are compared before and after (one registry per process).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./lib/config";
import { silentLogger } from "./lib/logger";
import { createSandboxProvider } from "./sandbox/index";
import { INSTANCE_ID } from "./lib/instance";
import { serveMetrics } from "./metrics-server";
import { checkLocalSandboxSupport } from "./sandbox/local/check";
import { grantedAccess } from "./test/access";
import { appServer } from "./test/app-server";
import { chatTestApp, readEvents } from "./test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "./test/fake-model-server";
import { scrape } from "./test/metrics-scrape";
import { waitFor } from "./test/sandbox-contract";

const support = await checkLocalSandboxSupport();

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
let metrics: ReturnType<typeof serveMetrics>;
let url: string;
beforeAll(async () => {
  model = await startFakeModelServer();
  // A queue of one, so every model request passes through it and its wait is measured.
  t = await chatTestApp({ model, env: { MODEL_MAX_CONCURRENCY: "1" } });
  metrics = serveMetrics({ port: 0, hostname: "127.0.0.1" });
  url = `http://127.0.0.1:${metrics.port}/metrics`;
}, 60_000);
afterAll(async () => {
  metrics?.stop(true);
  await t?.close();
  await model?.close();
});

describe("the metrics port", () => {
  test("serves Prometheus text; anything else on it is 404; the public app answers 404 for /metrics", async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    expect((await fetch(`http://127.0.0.1:${metrics.port}/api/health`)).status).toBe(404);
    expect((await t.app.request("/metrics")).status).toBe(404);
    const front = appServer(t);
    try {
      expect((await fetch(`${front.origin}/metrics`)).status).toBe(404);
    } finally {
      front.stop();
    }
  });

  test("counts requests by route pattern and status, never by raw path", async () => {
    const alice = t.user("alice");
    const projectId = await alice.project();
    const files = (status: number) => `http_requests_total{method="GET",route="/api/files/:projectId",status="${status}"}`;
    const before = await scrape(url);
    await alice.request("GET", `/api/files/${projectId}`);
    await alice.request("GET", `/api/files/${projectId}`);
    await t.app.request(`/api/files/${projectId}`); // no token: 401 from the auth middleware
    const after = await scrape(url);
    expect(after.value(files(200)) - before.value(files(200))).toBe(2);
    expect(after.value(files(401)) - before.value(files(401))).toBe(1);
    const count = 'http_request_duration_seconds_count{method="GET",route="/api/files/:projectId"}';
    expect(after.value(count) - before.value(count)).toBe(3);
    expect(after.text).not.toContain(projectId);
  });

  test("runs: active while working, then outcome, duration, tokens, time to first token, a model error by kind, queue wait", async () => {
    const alice = t.user("alice");
    const projectId = await alice.project();
    const before = await scrape(url);
    // A 500 first (retried: one error of kind "server"), then a slow answer.
    model.enqueue(turn.http(500), turn.steps({ text: "Hello" }, { delayMs: 400 }, { text: " world" }));
    const stream = await alice.request("POST", "/api/messages/stream", { projectId, content: "Hi" });
    expect((await scrape(url)).value("app_agent_runs_active")).toBe(1);
    const events = await readEvents(stream);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });

    const after = await scrape(url);
    const delta = (series: string) => after.value(series) - before.value(series);
    expect(after.value("app_agent_runs_active")).toBe(0);
    expect(delta('app_runs_total{outcome="complete"}')).toBe(1);
    expect(delta('app_run_duration_seconds_count{outcome="complete"}')).toBe(1);
    expect(delta('app_run_duration_seconds_sum{outcome="complete"}')).toBeGreaterThan(0.4);
    expect(delta('app_run_tokens_total{type="input"}')).toBeGreaterThan(0);
    expect(delta('app_run_tokens_total{type="output"}')).toBeGreaterThan(0);
    expect(delta('app_model_errors_total{kind="server"}')).toBe(1);
    expect(delta("app_model_time_to_first_token_seconds_count")).toBeGreaterThanOrEqual(1);
    expect(delta("app_model_queue_wait_seconds_count")).toBeGreaterThanOrEqual(1);
  });
});

describe.skipIf(!support.ok)("the metrics port with a real local sandbox", () => {
  test("a sandbox start (count, duration, active per instance) and a preview request (by kind and status class)", async () => {
    const alice = t.user("alice");
    const projectId = await alice.project("Preview metrics");
    const before = await scrape(url);
    const command = `python3 -c "import http.server;http.server.HTTPServer(('0.0.0.0',8125),http.server.SimpleHTTPRequestHandler).serve_forever()" & sleep 1000`;
    expect((await alice.request("POST", `/api/sandbox/${projectId}/processes`, { name: "web", command })).status).toBe(200);
    const sandbox = await t.deps.sandboxes.ensure(grantedAccess(alice.uid, projectId));
    const front = appServer(t, { provider: t.provider, previewAccess: "open" });
    try {
      const res = await waitFor("the server inside answering", async () => {
        const r = await front.preview(sandbox.id, 8125);
        return r.status === 200 ? r : null;
      });
      await res.text();
    } finally {
      front.stop();
    }
    const after = await scrape(url);
    const delta = (series: string) => after.value(series) - before.value(series);
    expect(delta('app_sandbox_starts_total{provider="local"}')).toBe(1);
    expect(delta('app_sandbox_start_failures_total{provider="local"}')).toBe(0);
    expect(delta('app_sandbox_start_duration_seconds_count{provider="local"}')).toBe(1);
    expect(after.value(`app_sandboxes_active{instance="${INSTANCE_ID}"}`)).toBeGreaterThanOrEqual(1);
    expect(delta('app_proxy_requests_total{kind="preview",status_class="2xx"}')).toBeGreaterThanOrEqual(1);
    expect(delta('app_proxy_request_duration_seconds_count{kind="preview"}')).toBeGreaterThanOrEqual(1);
    expect(after.text).not.toContain(sandbox.id);
  }, 90_000);

  test("a failed start counts as a start and a failure, with no duration (a full host: MAX_SANDBOXES_PER_HOST=1)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "metrics-full-host-"));
    chmodSync(dataDir, 0o711);
    const provider = createSandboxProvider(loadConfig({ DATA_DIR: dataDir, MAX_SANDBOXES_PER_HOST: "1" }), silentLogger);
    try {
      const before = await scrape(url);
      await provider.create("metrics-first");
      await expect(provider.create("metrics-second")).rejects.toThrow("MAX_SANDBOXES_PER_HOST");
      const after = await scrape(url);
      const delta = (series: string) => after.value(series) - before.value(series);
      expect(delta('app_sandbox_starts_total{provider="local"}')).toBe(2);
      expect(delta('app_sandbox_start_failures_total{provider="local"}')).toBe(1);
      expect(delta('app_sandbox_start_duration_seconds_count{provider="local"}')).toBe(1);
    } finally {
      await provider.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
