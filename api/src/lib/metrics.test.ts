import { describe, expect, test } from "bun:test";
import { parseScrape } from "../test/metrics-scrape";
import { gauge, observeRequest, registry, statusClass } from "./metrics";

const scrapeNow = async () => parseScrape(await registry.metrics());

describe("the process's metrics (prom-client)", () => {
  test("requests by method, route pattern and status; a cumulative latency histogram with +Inf, sum and count", async () => {
    const route = `/unit/${crypto.randomUUID()}`;
    observeRequest("GET", route, 200, 0.003);
    observeRequest("GET", route, 200, 0.2);
    observeRequest("GET", route, 401, 20);
    const m = await scrapeNow();
    expect(m.value(`http_requests_total{method="GET",route="${route}",status="200"}`)).toBe(2);
    expect(m.value(`http_requests_total{method="GET",route="${route}",status="401"}`)).toBe(1);
    const bucket = (le: string) => m.value(`http_request_duration_seconds_bucket{le="${le}",method="GET",route="${route}"}`);
    expect([bucket("0.005"), bucket("0.1"), bucket("0.25"), bucket("10"), bucket("+Inf")]).toEqual([1, 1, 2, 2, 3]);
    expect(m.value(`http_request_duration_seconds_count{method="GET",route="${route}"}`)).toBe(3);
    expect(m.value(`http_request_duration_seconds_sum{method="GET",route="${route}"}`)).toBeCloseTo(20.203, 3);
    expect(m.text).toContain("# TYPE http_request_duration_seconds histogram");
  });

  test("gauges are read at scrape time, with their labels; registering again replaces the reader; a throwing reader reports 0", async () => {
    let clients = 3;
    gauge("unit_test_clients", "Clients.", () => clients, { instance: "i-1" });
    expect((await scrapeNow()).value('unit_test_clients{instance="i-1"}')).toBe(3);
    clients = 0;
    expect((await scrapeNow()).value('unit_test_clients{instance="i-1"}')).toBe(0);
    gauge("unit_test_clients", "Clients.", () => 7, { instance: "i-1" });
    expect((await scrapeNow()).value('unit_test_clients{instance="i-1"}')).toBe(7);
    gauge("unit_test_broken", "Broken.", () => {
      throw new Error("gone");
    });
    expect((await scrapeNow()).text).toContain("\nunit_test_broken 0\n");
  });

  test("the default process metrics are there: CPU, memory, event-loop lag", async () => {
    const m = await scrapeNow();
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes"]) {
      expect({ name, exported: m.names.has(name) }).toEqual({ name, exported: true });
    }
    expect(m.value("process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  test("status classes; a WebSocket upgrade (no response) is 1xx", () => {
    expect([statusClass(200), statusClass(302), statusClass(404), statusClass(502), statusClass(undefined)]).toEqual(["2xx", "3xx", "4xx", "5xx", "1xx"]);
  });
});
