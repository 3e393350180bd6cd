/**
 * Attack replayed: naming a published site's files with dot segments spelled so that fetch clients and
 * browsers would not resolve them (`%2e%2e`, `.%2E`, `..%2f`, backslashes), sent as raw bytes to the real app
 * process, behind the project's Caddyfile as in production and on its own as in local use. Safe outcome:
 * through Caddy and straight to the app alike, every such path answers 400 (never the site's index.html,
 * which a client-side route gets, nor a file the resolved path would name). The app reads the raw target's
 * segments through Bun.serve routes (site-request.ts), since `req.url` has its dot segments resolved.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Deployment, PublishResult } from "@shared/schemas/publish";
import { processUser, startAppProcess, type AppProcess } from "../api/src/test/app-process";
import { startCaddy, type CaddyProcess } from "../api/src/test/caddy-process";
import { rawHttp } from "../api/src/test/raw-http";

const INDEX = `index-${crypto.randomUUID()}`;
const ROBOTS = `robots-${crypto.randomUUID()}`;
const slug = `paths-${crypto.randomUUID().slice(0, 8)}`;
const user = processUser("alice");
let app: AppProcess;
let caddy: CaddyProcess;

/** Every spelling the URL parser would resolve, or that names something other than a plain path. */
const TRICKS = [
  "/%2e%2e/x",
  "/%2E%2E/x",
  "/a/%2e%2e/%2e%2e/x",
  "/%2e%2e/%2e%2e/robots.txt",
  "/a/.%2e/x",
  "/a/%2e./x",
  "/%2e/x",
  "/a/..",
  "/../x",
  "/./x",
  "/..%2fx",
  "/a%2f..%2f..%2fx",
  "/a/%2e%2e%2fx",
  "/a\\..\\x",
  "/%5c..%5cx",
  "/a%00b",
  "/a%0ab",
];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...user.auth, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe("site paths with dot segments in disguise", () => {
  beforeAll(async () => {
    app = await startAppProcess({ SANDBOX_WARM_TEMPLATES: "none" });
    const { id } = await api<{ id: string }>("POST", "/api/projects", { name: "Paths" });
    await api("POST", `/api/files/${id}`, { path: "index.html", content: `<p>${INDEX}</p>` });
    await api("POST", `/api/files/${id}`, { path: "robots.txt", content: ROBOTS });
    await api<PublishResult>("POST", `/api/projects/${id}/publish`, { slug });
    const deadline = Date.now() + 30_000;
    while ((await api<Deployment[]>("GET", `/api/projects/${id}/deployments`))[0]?.status !== "live") {
      if (Date.now() > deadline) throw new Error("the site did not go live within 30 s");
      await Bun.sleep(100);
    }
    caddy = await startCaddy([`127.0.0.1:${app.port}`]);
  }, 60_000);
  afterAll(async () => {
    await caddy?.stop();
    app?.kill("SIGTERM");
    await app?.exited;
  });

  const viaCaddy = (path: string) => rawHttp(caddy.port, { host: `${slug}.sites.localhost:${caddy.port}`, path });
  const direct = (path: string) => rawHttp(app.port, { host: `${slug}.sites.localhost:${app.port}`, path });

  test("the site answers through Caddy: its files, and index.html for a client-side route (what a trick would get)", async () => {
    expect((await viaCaddy("/robots.txt")).body).toBe(ROBOTS);
    const route = await viaCaddy("/x");
    expect(route.status).toBe(200);
    expect(route.body).toContain(INDEX);
    // Names that merely hold dots are files like any other.
    expect((await viaCaddy("/v1..2/...")).body).toContain(INDEX);
  });

  test("through Caddy, every disguised dot segment, backslash or control character answers 400, not index.html", async () => {
    for (const path of TRICKS) {
      const res = await viaCaddy(path);
      expect({ path, status: res.status, index: res.text.includes(INDEX), robots: res.text.includes(ROBOTS) }).toEqual({
        path,
        status: 400,
        index: false,
        robots: false,
      });
    }
  });

  test("straight to the app (no proxy in front), every disguised dot segment, backslash or control character answers 400 too", async () => {
    for (const path of [...TRICKS, "/%2e%2e/%2e%2e/robots.txt", "/a/%2E%2E/robots.txt", "/a\\..\\robots.txt", "//x"]) {
      const res = await direct(path);
      expect({ path, status: res.status, index: res.text.includes(INDEX), robots: res.text.includes(ROBOTS) }).toEqual({
        path,
        status: 400,
        index: false,
        robots: false,
      });
    }
    // The same app still serves plain paths, deep ones and names that merely hold dots.
    expect((await direct("/robots.txt")).body).toBe(ROBOTS);
    expect((await direct("/a/b/c/d/e/f/g/h")).body).toContain(INDEX);
    expect((await direct("/v1..2/...")).body).toContain(INDEX);
    // Deeper than the raw-path routes can read: refused rather than served unchecked.
    expect((await direct(`/${"d/".repeat(30)}x`)).status).toBe(400);
  });
});
