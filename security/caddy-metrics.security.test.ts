/**
 * Attack replayed: reading the instance's Prometheus metrics (routes, request counts, active users'
 * sockets and sandboxes) from the internet through the Caddyfile: on the app's host under other spellings
 * of the path, and on any other name under the wildcard preview site (www., metrics.…), which used to reach
 * the app itself. Safe outcome: no public host and no spelling of the path shows the metrics, while the
 * instance itself still serves them to a scraper on the private network.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startAppProcess, unusedPort, type AppProcess } from "../api/src/test/app-process";

const ROOT = resolve(import.meta.dir, "..");
const METRIC = "http_requests_total";
let app: AppProcess;
let caddy: ReturnType<typeof Bun.spawn>;
let caddyHome = "";
let port = 0;

/** A raw HTTP/1.1 request, so the path reaches Caddy exactly as written (fetch would normalise it). */
async function raw(host: string, path: string): Promise<string> {
  let text = "";
  const done = Promise.withResolvers<void>();
  await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      open: (s) => void s.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      data: (_, chunk) => void (text += new TextDecoder().decode(chunk)),
      close: () => done.resolve(),
      error: () => done.resolve(),
    },
  });
  await Promise.race([done.promise, Bun.sleep(5000)]);
  return text;
}

describe("metrics are not public", () => {
  beforeAll(async () => {
    app = await startAppProcess({ SANDBOX_WARM_TEMPLATES: "none" });
    port = unusedPort();
    caddyHome = mkdtempSync(join(tmpdir(), "caddy-sec-"));
    caddy = Bun.spawn(["caddy", "run", "--config", join(ROOT, "Caddyfile"), "--adapter", "caddyfile"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: caddyHome,
        XDG_DATA_HOME: join(caddyHome, "data"),
        XDG_CONFIG_HOME: join(caddyHome, "config"),
        DOMAIN: `localhost:${port}`,
        HTTP_PORT: String(port),
        APP_UPSTREAMS: `127.0.0.1:${app.port}`,
        CADDY_ADMIN: "off",
      },
      stdout: "ignore",
      stderr: "ignore",
    });
    const deadline = Date.now() + 10_000;
    while (!(await fetch(`http://localhost:${port}/api/health`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline) throw new Error("Caddy did not answer within 10 s");
      await Bun.sleep(100);
    }
  }, 60_000);
  afterAll(async () => {
    caddy?.kill("SIGTERM");
    await caddy?.exited;
    app?.kill("SIGTERM");
    await app?.exited;
    if (caddyHome) rmSync(caddyHome, { recursive: true, force: true });
  });

  test("the instance serves metrics on its own port (what the attack is after)", async () => {
    expect(await (await fetch(`${app.url}/metrics`)).text()).toContain(METRIC);
  });

  test("the app's public host: /metrics under any spelling answers without metrics", async () => {
    const host = `localhost:${port}`;
    expect(await raw(host, "/api/health")).toContain("200 OK"); // the site does answer through Caddy
    for (const path of ["/metrics", "/METRICS", "/Metrics/", "/metrics/", "/%6detrics", "/metrics?x=1", "/metrics%3F", "/./metrics", "/api/../metrics"]) {
      const answer = await raw(host, path);
      expect({ path, leaked: answer.includes(METRIC) }).toEqual({ path, leaked: false });
    }
  });

  test("other names under the preview wildcard: 404, not the app (and so not its metrics)", async () => {
    for (const name of ["www", "metrics", "api", "x-abcdef0123456789"]) {
      const answer = await raw(`${name}.localhost:${port}`, "/metrics");
      expect({ name, leaked: answer.includes(METRIC) }).toEqual({ name, leaked: false });
      expect(answer).toStartWith("HTTP/1.1 404");
    }
    // A preview-shaped host still reaches the app's preview proxy (a stopped preview, here).
    expect(await raw(`5173-abcdef0123456789.localhost:${port}`, "/")).toContain("This preview has stopped");
  });
});
