import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { describeConfig } from "./describe";
import { loadConfig as load } from "./index";

describe("METRICS_PORT", () => {
  test("9091 by default, a port when set, off with 0 or off; the start-up summary says which", () => {
    expect(load({}).metricsPort).toBe(9091);
    expect(load({ METRICS_PORT: "9200" }).metricsPort).toBe(9200);
    expect(load({ METRICS_PORT: "0" }).metricsPort).toBeNull();
    expect(load({ METRICS_PORT: "OFF" }).metricsPort).toBeNull();
    expect(describeConfig(load({}))).toContain("metrics:  GET /metrics on 127.0.0.1:9091 (METRICS_PORT)");
    expect(describeConfig(load({ METRICS_PORT: "off" }))).toContain("metrics:  off (METRICS_PORT=off)");
  });

  test("anything else is refused with what to write", () => {
    for (const bad of ["-1", "70000", "abc", "91.5"]) expect(failure({ METRICS_PORT: bad })).toContain("METRICS_PORT");
    expect(failure({ METRICS_PORT: "abc" })).toContain("0 / off to turn metrics off");
  });
});
