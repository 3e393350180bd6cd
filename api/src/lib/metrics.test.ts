import { describe, expect, test } from "bun:test";
import { createMetrics } from "./metrics";

describe("Prometheus exposition", () => {
  test("counters by method, route and status; a cumulative histogram with +Inf, sum and count", () => {
    const m = createMetrics();
    m.observeRequest("GET", "/api/projects", 200, 0.003);
    m.observeRequest("GET", "/api/projects", 200, 0.2);
    m.observeRequest("GET", "/api/projects", 401, 20);
    const lines = m.render().split("\n");
    expect(lines).toContain('http_requests_total{method="GET",route="/api/projects",status="200"} 2');
    expect(lines).toContain('http_requests_total{method="GET",route="/api/projects",status="401"} 1');
    const bucket = (le: string) =>
      lines.find((l) => l.startsWith(`http_request_duration_seconds_bucket{method="GET",route="/api/projects",le="${le}"}`))?.split(" ")[1];
    expect([bucket("0.005"), bucket("0.1"), bucket("0.25"), bucket("10"), bucket("+Inf")]).toEqual(["1", "1", "2", "2", "3"]);
    expect(lines).toContain('http_request_duration_seconds_count{method="GET",route="/api/projects"} 3');
    expect(lines.find((l) => l.startsWith("http_request_duration_seconds_sum"))).toMatch(/ 20\.203\d*$/);
    expect(lines).toContain("# TYPE http_request_duration_seconds histogram");
  });

  test("gauges are read at scrape time; a gauge without a value is left out; label values are escaped", () => {
    const m = createMetrics();
    let clients = 3;
    m.gauge("app_websocket_clients", "Clients.", () => clients);
    m.gauge("app_unknown", "Not known yet.", () => null);
    m.observeRequest("GET", 'a"b\\c', 200, 0.001);
    expect(m.render()).toContain("# TYPE app_websocket_clients gauge\napp_websocket_clients 3\n");
    clients = 0;
    expect(m.render()).toContain("app_websocket_clients 0\n");
    expect(m.render()).not.toContain("app_unknown");
    expect(m.render()).toContain('route="a\\"b\\\\c"');
  });
});
