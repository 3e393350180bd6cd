/**
 * Request ids reach every log line written for the request, not only the request line: the real app with a
 * failing object store, where the readiness service logs its failed check during GET /api/ready.
 */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../lib/logger";
import { createLocalStore } from "../storage/local";
import { flakyStore } from "../test/flaky-store";
import { testApp } from "../test/test-app";

test("a service's log line carries the id of the request it was written for (the sent one, or the one answered)", async () => {
  const lines: Record<string, unknown>[] = [];
  const store = flakyStore(createLocalStore(mkdtempSync(join(tmpdir(), "request-log-"))));
  store.failing.add("ping");
  const t = await testApp({ store, logger: createLogger("info", (line) => lines.push(JSON.parse(line))) });

  const sent = "req-from-caddy-0001";
  const res = await t.app.request("/api/ready", { headers: { "x-request-id": sent } });
  expect(res.status).toBe(503);
  expect(res.headers.get("x-request-id")).toBe(sent);
  const serviceLine = lines.find((l) => l.msg === "readiness check failed");
  expect(serviceLine?.requestId).toBe(sent);

  const generated = await t.app.request("/api/ready");
  const id = generated.headers.get("x-request-id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(lines.filter((l) => l.msg === "readiness check failed").map((l) => l.requestId)).toEqual([sent, id]);
  // Outside any request, nothing is added.
  lines.length = 0;
  createLogger("info", (line) => lines.push(JSON.parse(line))).info("on its own");
  expect(lines[0]).not.toHaveProperty("requestId");
}, 60_000);
