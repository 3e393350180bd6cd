/**
 * Prometheus metrics in the text exposition format (0.0.4), written by hand: request counts by method,
 * route and status, a latency histogram by method and route, and gauges read at scrape time (active agent
 * runs, sandboxes, WebSocket clients). Routes are the registered patterns (`/api/files/:projectId`), never
 * raw paths, so the number of series stays small.
 *
 * @example
 * const metrics = createMetrics();
 * metrics.gauge("app_agent_runs_active", "Agent runs working in this process.", () => runs.activeCount());
 * metrics.observeRequest("GET", "/api/projects", 200, 0.004);
 * const text = metrics.render(); // served at GET /metrics
 */

/** Upper bounds in seconds. Chat streams are counted when their response starts, not when they end. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export type Metrics = {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Registers (or replaces) a gauge; `read` returning null leaves it out of this scrape. */
  gauge(name: string, help: string, read: () => number | null): void;
  render(): string;
};

type Histogram = { method: string; route: string; buckets: number[]; sum: number; count: number };

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const labels = (pairs: Record<string, string>) =>
  `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(",")}}`;
const number = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? "+Inf" : n < 0 ? "-Inf" : "NaN");

export function createMetrics(): Metrics {
  const requests = new Map<string, { method: string; route: string; status: string; count: number }>();
  const latencies = new Map<string, Histogram>();
  const gauges = new Map<string, { help: string; read: () => number | null }>();

  return {
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      const counter = requests.get(key) ?? { method, route, status: String(status), count: 0 };
      counter.count++;
      requests.set(key, counter);

      const hkey = `${method} ${route}`;
      let h = latencies.get(hkey);
      if (!h) latencies.set(hkey, (h = { method, route, buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
      LATENCY_BUCKETS.forEach((le, i) => {
        if (seconds <= le) h.buckets[i]!++;
      });
      h.sum += seconds;
      h.count++;
    },

    gauge(name, help, read) {
      gauges.set(name, { help, read });
    },

    render() {
      const out: string[] = [];
      out.push("# HELP http_requests_total HTTP requests answered, by method, route pattern and status.");
      out.push("# TYPE http_requests_total counter");
      for (const r of requests.values()) out.push(`http_requests_total${labels({ method: r.method, route: r.route, status: r.status })} ${r.count}`);

      out.push("# HELP http_request_duration_seconds Time until the response started, by method and route pattern.");
      out.push("# TYPE http_request_duration_seconds histogram");
      for (const h of latencies.values()) {
        const base = { method: h.method, route: h.route };
        LATENCY_BUCKETS.forEach((le, i) => out.push(`http_request_duration_seconds_bucket${labels({ ...base, le: String(le) })} ${h.buckets[i]}`));
        out.push(`http_request_duration_seconds_bucket${labels({ ...base, le: "+Inf" })} ${h.count}`);
        out.push(`http_request_duration_seconds_sum${labels(base)} ${h.sum}`);
        out.push(`http_request_duration_seconds_count${labels(base)} ${h.count}`);
      }

      for (const [name, g] of gauges) {
        let value: number | null;
        try {
          value = g.read();
        } catch {
          value = null;
        }
        if (value === null) continue;
        out.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`, `${name} ${number(value)}`);
      }
      return `${out.join("\n")}\n`;
    },
  };
}
