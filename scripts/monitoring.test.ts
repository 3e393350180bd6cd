/**
 * The monitoring kit in deploy/ is honest: the Grafana dashboard parses, the alert rules are well formed, and
 * every metric name either of them queries is one a real running app exports on its METRICS_PORT (scraped
 * after a little work, so the labelled families have series). The public port answers 404 for /metrics.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { processUser, startAppProcess, unusedPort, type AppProcess } from "../api/src/test/app-process";
import { type Scrape, scrape } from "../api/src/test/metrics-scrape";

const ROOT = resolve(import.meta.dir, "..");
const dashboard = JSON.parse(readFileSync(join(ROOT, "deploy/grafana/dashboards/app-builder.json"), "utf8"));
type Rule = { alert: string; expr: string; for: string; labels: { severity: string }; annotations: { summary: string; description: string } };
const alerts = Bun.YAML.parse(readFileSync(join(ROOT, "deploy/prometheus/alerts.yml"), "utf8")) as { groups: { name: string; rules: Rule[] }[] };

/** Every `expr` anywhere in the dashboard (panels, rows' panels, targets). */
function dashboardExprs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) dashboardExprs(item, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "expr" && typeof value === "string") found.push(value);
      else dashboardExprs(value, found);
    }
  }
  return found;
}

/** PromQL's aggregation operators (written before `by`, so not always right before their parenthesis). */
const AGGREGATIONS = new Set(["sum", "min", "max", "avg", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "group"]);

/**
 * Metric names in a PromQL expression: the identifiers left once label matchers, strings, ranges and
 * `by (…)` lists are taken out, that are neither functions (followed by `(`) nor aggregation operators.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, " ")
    .replace(/"[^"]*"/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  return [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter((m) => !m[2] && !AGGREGATIONS.has(m[1]!) && !["and", "or", "unless", "bool", "offset"].includes(m[1]!))
    .map((m) => m[1]!);
}

let app: AppProcess;
let metricsPort: number;
let exported: Scrape;
beforeAll(async () => {
  metricsPort = unusedPort();
  app = await startAppProcess({ METRICS_PORT: String(metricsPort) });
  // A little work, so the labelled families have series: an API request, a published-site request.
  const alice = processUser("alice");
  await fetch(`${app.url}/api/projects`, { headers: alice.auth });
  await fetch(`${app.url}/`, { headers: { host: `nothing-here.sites.localhost:${app.port}` } });
  exported = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
}, 60_000);
afterAll(async () => {
  app?.kill("SIGTERM");
  await app?.exited;
});

describe("the running app's metrics port", () => {
  test("serves the metrics; the public port answers 404 for /metrics", async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
    expect(exported.value("app_ready")).toBe(1);
    expect(exported.value("app_db_pool_max")).toBeGreaterThan(0);
    expect(exported.value("app_db_connections_open")).toBeGreaterThan(0);
    expect(exported.value('app_proxy_requests_total{kind="site",status_class="4xx"}')).toBe(1);
    expect(exported.value('http_requests_total{method="GET",route="/api/projects",status="200"}')).toBe(1);
    expect(exported.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(exported.names.has("nodejs_eventloop_lag_p99_seconds")).toBe(true);
  });
});

describe("a METRICS_PORT already taken", () => {
  test("start-up stops (exit 1) saying which port and what to set", async () => {
    const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("someone else") });
    try {
      const second = await startAppProcess({ METRICS_PORT: String(taken.port) });
      expect(await Promise.race([second.exited, Bun.sleep(20_000).then(() => "still running")])).toBe(1);
      const said = second.lines.find((l) => l.startsWith("Cannot serve metrics"));
      expect(said).toContain(`127.0.0.1:${taken.port}`);
      expect(said).toContain("set METRICS_PORT to a free port, or METRICS_PORT=off");
    } finally {
      taken.stop(true);
    }
  }, 60_000);
});

describe("deploy/: the dashboard and the alert rules", () => {
  test("the dashboard is a provisioned Grafana dashboard on the provisioned Prometheus data source", () => {
    expect(dashboard).toMatchObject({ uid: "app-builder", title: "App builder" });
    const panels = (dashboard.panels as { type: string; datasource?: { uid: string }; targets?: unknown[] }[]).filter((p) => p.type !== "row");
    expect(panels.length).toBeGreaterThan(10);
    for (const panel of panels) {
      expect(panel.datasource?.uid).toBe("prometheus");
      expect(panel.targets?.length).toBeGreaterThan(0);
    }
    const datasource = Bun.YAML.parse(readFileSync(join(ROOT, "deploy/grafana/provisioning/datasources/prometheus.yml"), "utf8")) as {
      datasources: { uid: string; url: string }[];
    };
    expect(datasource.datasources).toEqual([expect.objectContaining({ uid: "prometheus", url: "http://prometheus:9090" })]);
  });

  test("the alert rules are well formed and cover what the README promises", () => {
    const rules = alerts.groups.flatMap((g) => g.rules);
    for (const rule of rules) {
      expect({ alert: rule.alert, ok: !!rule.expr && /^\d+m$/.test(rule.for) && !!rule.labels.severity && !!rule.annotations.summary }).toEqual({
        alert: rule.alert,
        ok: true,
      });
    }
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining(["AppInstanceNotReady", "HighModelErrorRate", "SandboxStartFailures", "EventLoopLag", "DatabasePoolSaturated"]),
    );
  });

  test("every metric the dashboard and the alerts query is one the running app exports", () => {
    const used = new Set([...dashboardExprs(dashboard), ...alerts.groups.flatMap((g) => g.rules.map((r) => r.expr))].flatMap(metricNames));
    expect(used.size).toBeGreaterThan(15);
    // `up` is Prometheus's own, per target.
    const unknown = [...used].filter((name) => name !== "up" && !exported.names.has(name));
    expect(unknown).toEqual([]);
  });
});
