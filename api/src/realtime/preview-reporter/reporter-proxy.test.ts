/**
 * The problem reporter through the real preview proxy and a real upstream: pages (and only pages) get the
 * script tag with a true Content-Length, compressed and streamed pages included; the proxy serves the
 * script and takes reports itself (same origin only, size-capped, rate-limited); Vite's HMR error payloads
 * are noted on their way to the page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { createMemoryBus } from "../../events/memory-bus";
import { serveHttp } from "../../http-server";
import { silentLogger } from "../../lib/logger";
import type { Sandbox, SandboxProvider } from "../../sandbox/types";
import { openPreviewAccess } from "../../test/preview-access";
import { createPreviewProxy } from "../preview-proxy";
import { createWsHub } from "../ws-hub";
import { REPORTER_PATH, REPORTER_TAG, REPORTS_PATH } from "./inject";
import { createReportsEndpoint, MAX_REPORT_BYTES } from "./reports-endpoint";

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>é</title></head><body><div id="root"></div></body></html>`;
const VITE_ERROR = { type: "error", err: { message: "Failed to resolve import", loc: { file: "/home/user/project/src/App.tsx", line: 2, column: 3 } } };
const bodies: Record<string, { type: string; body: string | Uint8Array; headers?: Record<string, string> }> = {
  "/": { type: "text/html; charset=utf-8", body: PAGE },
  "/app.js": { type: "text/javascript", body: "console.log('<head>')" },
  "/style.css": { type: "text/css", body: "head{}" },
  "/data.json": { type: "application/json", body: '{"html":"<head>"}' },
  "/gzipped": { type: "text/html", body: new Uint8Array(gzipSync(PAGE)), headers: { "content-encoding": "gzip" } },
  "/has-it": { type: "text/html", body: `<html><head>${REPORTER_TAG}</head></html>` },
  "/strict-csp": { type: "text/html", body: PAGE, headers: { "content-security-policy": "script-src 'nonce-abc'" } },
};

let upstream: ReturnType<typeof Bun.serve>;
let front: ReturnType<typeof serveHttp>;
const upstreamPaths: string[] = [];
const acceptEncodings: (string | null)[] = [];
const reports: unknown[] = [];
const viteErrors: unknown[] = [];
const host = () => `5173-abcdefgh12345678.localhost:${front.port}`;
const access = openPreviewAccess();

beforeAll(() => {
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, server) {
      const path = new URL(req.url).pathname;
      upstreamPaths.push(path);
      acceptEncodings.push(req.headers.get("accept-encoding"));
      if (server.upgrade(req, { data: undefined, headers: { "Sec-WebSocket-Protocol": "vite-hmr" } })) return;
      if (path === "/streamed") {
        // No Content-Length: sent in pieces, <head> split between two of them.
        const parts = ["<!doctype html><ht", "ml><he", "ad><title>s</title></head><body>", "streamed</body></html>"];
        return new Response(
          new ReadableStream({
            async start(c) {
              for (const p of parts) {
                c.enqueue(new TextEncoder().encode(p));
                await Bun.sleep(5);
              }
              c.close();
            },
          }),
          { headers: { "content-type": "text/html" } },
        );
      }
      const r = bodies[path];
      if (!r) return new Response("nope", { status: 404 });
      return new Response(r.body as string | Uint8Array<ArrayBuffer>, { headers: { "content-type": r.type, ...r.headers } });
    },
    websocket: {
      open: (ws) => void ws.send(JSON.stringify(VITE_ERROR)),
      message: () => {},
    },
  });
  const sandbox = { id: "abcdefgh12345678", previewTarget: async () => ({ hostname: "127.0.0.1", port: upstream.port }) } as unknown as Sandbox;
  const provider = {
    kind: "local",
    connect: async (id: string) => (id === sandbox.id ? sandbox : null),
    create: async () => sandbox,
    shutdown: async () => {},
  } as SandboxProvider;
  const sink = {
    report: async (_id: string, r: unknown[]) => void reports.push(...r),
    viteError: async (id: string, err: unknown) => void viteErrors.push({ id, err }),
  };
  const preview = createPreviewProxy({ provider, domain: "localhost", logger: silentLogger, problems: sink, ...access.proxy });
  const hub = createWsHub({
    sql: null as never,
    store: null as never,
    logger: silentLogger,
    events: createMemoryBus(),
    verifyToken: async () => {
      throw new Error("unused");
    },
  });
  front = serveHttp({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("the app"), hub, preview });
});
afterAll(() => {
  front.stop(true);
  upstream.stop(true);
});

const get = async (path: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${front.port}${path}`, { headers: { host: host(), cookie: await access.cookie(host()), ...headers } });
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("the reporter in preview pages", () => {
  test("an HTML page gets the tag once, first in <head>, with a Content-Length that matches its bytes", async () => {
    const res = await get("/");
    const bytes = await bytesOf(res);
    const text = new TextDecoder().decode(bytes);
    expect(text).toBe(PAGE.replace("<head>", `<head>${REPORTER_TAG}`));
    expect(Number(res.headers.get("content-length"))).toBe(bytes.byteLength);
    // The sandbox is asked for uncompressed bodies, so lengths it states are true.
    expect(acceptEncodings.at(-1)).toBe("identity");
  });

  test("JavaScript, CSS and JSON pass byte for byte; so does HTML fetched by the app's own code", async () => {
    for (const path of ["/app.js", "/style.css", "/data.json"]) {
      const res = await get(path);
      expect(await res.text()).toBe(bodies[path]!.body as string);
    }
    expect(await (await get("/", { "sec-fetch-dest": "empty" })).text()).toBe(PAGE);
    expect(await (await get("/", { "sec-fetch-dest": "iframe" })).text()).toContain(REPORTER_TAG);
  });

  test("a compressed page comes out decompressed, with the tag and the right length", async () => {
    const res = await get("/gzipped");
    const bytes = await bytesOf(res);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(Number(res.headers.get("content-length"))).toBe(bytes.byteLength);
    expect(new TextDecoder().decode(bytes)).toBe(PAGE.replace("<head>", `<head>${REPORTER_TAG}`));
  });

  test("a streamed page (no length) gets the tag and streams on", async () => {
    const res = await get("/streamed");
    expect(res.headers.get("content-length")).toBeNull();
    expect(await res.text()).toBe(`<!doctype html><html><head>${REPORTER_TAG}<title>s</title></head><body>streamed</body></html>`);
  });

  test("idempotent, and kept out of a page whose CSP would block it", async () => {
    expect((await (await get("/has-it")).text()).split(REPORTER_PATH).length).toBe(2);
    expect(await (await get("/strict-csp")).text()).toBe(PAGE);
  });
});

describe("the proxy's own paths", () => {
  test("the script is served by the proxy, never asked of the app", async () => {
    const before = upstreamPaths.length;
    const res = await get(REPORTER_PATH);
    expect(res.headers.get("content-type")).toStartWith("text/javascript");
    const script = await res.text();
    expect(script).toContain(REPORTS_PATH);
    // One function expression, called at once: nothing declared at the top level.
    expect(script.replace(/\/\*[\s\S]*?\*\//, "").trim()).toMatch(/^\(function \(\) \{[\s\S]*\}\)\(\);$/);
    expect(upstreamPaths.length).toBe(before);
  });

  test("reports from the preview's own pages are taken; other origins, junk and oversize are refused", async () => {
    const post = async (body: string, origin: string | null) =>
      fetch(`http://127.0.0.1:${front.port}${REPORTS_PATH}`, {
        method: "POST",
        headers: { host: host(), cookie: await access.cookie(host()), "content-type": "application/json", ...(origin ? { origin } : {}) },
        body,
      });
    const good = JSON.stringify({ reports: [{ kind: "error", message: "boom", stack: "Error: boom", file: "/src/App.tsx", line: 3 }] });
    expect((await post(good, `http://${host()}`)).status).toBe(204);
    expect(reports).toEqual([{ kind: "error", message: "boom", stack: "Error: boom", file: "/src/App.tsx", line: 3 }]);
    expect((await post(good, "http://evil.example")).status).toBe(403);
    expect((await post(good, null)).status).toBe(403);
    expect((await post("{not json", `http://${host()}`)).status).toBe(400);
    expect((await post(JSON.stringify({ reports: [{ kind: "nonsense", message: "x" }] }), `http://${host()}`)).status).toBe(400);
    expect((await post("x".repeat(MAX_REPORT_BYTES + 1), `http://${host()}`)).status).toBe(413);
    expect(reports).toHaveLength(1);
  });

  test("reports are rate-limited per sandbox", async () => {
    const endpoint = createReportsEndpoint({ sink: null, logger: silentLogger, burst: 3, refillPerSecond: 0.001 });
    const send = (sandboxId: string) =>
      endpoint.handle(
        new Request(`http://h${REPORTS_PATH}`, {
          method: "POST",
          headers: { origin: "http://h" },
          body: JSON.stringify({ reports: [{ kind: "console", message: "m" }] }),
        }),
        sandboxId,
        "h",
      );
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await send("one"))!.status);
    expect(statuses).toEqual([204, 204, 204, 429, 429]);
    expect((await send("two"))!.status).toBe(204);
  });

  test("Vite's HMR error payload is noted and still reaches the page", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${front.port}/`, {
      headers: { host: host(), cookie: await access.cookie(host()) },
      protocols: ["vite-hmr"],
    } as never);
    const got = await new Promise<string>((resolve, reject) => {
      ws.onmessage = (e) => resolve(String(e.data));
      ws.onerror = () => reject(new Error("socket error"));
    });
    ws.close();
    expect(JSON.parse(got)).toEqual(VITE_ERROR);
    expect(viteErrors).toEqual([{ id: "abcdefgh12345678", err: VITE_ERROR.err }]);
  });
});
