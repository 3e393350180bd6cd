/**
 * Attack replayed: reading the instance's Prometheus metrics (routes, request counts, active users'
 * sockets and sandboxes) from the internet through the Caddyfile: on the app's host under other spellings
 * of the path, and on any other name under the wildcard preview site (www., metrics.…), which used to reach
 * the app itself. Safe outcome: no public host and no spelling of the path shows the metrics, while the
 * instance itself still serves them to a scraper on the private network, on its own METRICS_PORT (the public
 * port answers 404 for /metrics even without Caddy).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startAppProcess, unusedPort, type AppProcess } from "../api/src/test/app-process";
import { startCaddy, type CaddyProcess } from "../api/src/test/caddy-process";
import { rawHttp } from "../api/src/test/raw-http";

const METRIC = "http_requests_total";
let app: AppProcess;
let caddy: CaddyProcess;
let port = 0;
let metricsPort = 0;

/** A raw HTTP/1.1 request, so the path reaches Caddy exactly as written (fetch would normalise it). */
const raw = async (host: string, path: string): Promise<string> => (await rawHttp(port, { host, path })).text;

describe("metrics are not public", () => {
  beforeAll(async () => {
    // Behind Caddy previews are `*.<DOMAIN>` (one label under the app's host), as a deployment's PUBLIC_URL makes them.
    metricsPort = unusedPort();
    app = await startAppProcess({ SANDBOX_WARM_TEMPLATES: "none", PREVIEW_DOMAIN: "localhost", METRICS_PORT: String(metricsPort) });
    caddy = await startCaddy([`127.0.0.1:${app.port}`]);
    port = caddy.port;
  }, 60_000);
  afterAll(async () => {
    await caddy?.stop();
    app?.kill("SIGTERM");
    await app?.exited;
  });

  test("the instance serves metrics on its own port (what the attack is after), never on the public one", async () => {
    expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toContain(METRIC);
    const onPublicPort = await fetch(`${app.url}/metrics`);
    expect(onPublicPort.status).toBe(404);
    expect(await onPublicPort.text()).not.toContain(METRIC);
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
    // A preview-shaped host still reaches the app's preview proxy: its own page for a sandbox that no project
    // names (a stopped one when the instance only checks once the sandbox is gone).
    expect(await raw(`5173-abcdef0123456789.localhost:${port}`, "/")).toMatch(/There is no such preview|This preview has stopped/);
  });
});
