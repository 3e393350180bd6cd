/**
 * The check's headless browser with the machine's real Chromium against a real HTTP server on loopback: a page
 * that throws at render, rejects or logs an error is reported; a page that works shows nothing; the app's code
 * reaches no other origin; one page at a time per project; driven over a pipe; closed when idle.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { BROWSER_UID } from "./browser-launch";
import { readdirSync, readFileSync } from "node:fs";
import { silentLogger } from "../../lib/logger";
import { browserPath, createPageBrowser } from "./page-browser";

const chromium = browserPath("auto");
const html = (script: string) =>
  new Response(`<!doctype html><html><body><div id="root"></div><script type="module" src="${script}"></script></body></html>`, {
    headers: { "content-type": "text/html" },
  });
const js = (body: string) => new Response(body, { headers: { "content-type": "text/javascript" } });

let slowNow = 0;
let slowMax = 0;
let otherHits = 0;
let meetNow = 0;
let meetMax = 0;
const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (otherHits++, new Response("secret")) });
const app = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    const page = /^\/([\w-]+)\/$/.exec(path)?.[1];
    if (page) return html(`/src/${page}.js`);
    switch (path) {
      case "/src/throws.js":
        return js(`import { render } from "./render.js";\nrender();\n`);
      case "/src/render.js":
        return js(`export function render() {\n  const items = undefined;\n  document.getElementById("root").textContent = items.map(String).join();\n}\n`);
      case "/src/works.js":
        return js(`document.getElementById("root").textContent = "Hello";\n`);
      case "/src/rejects.js":
        return js(`fetch("/api/data").then((r) => { if (!r.ok) throw new Error("Loading data failed: " + r.status); });\n`);
      case "/src/logs.js":
        return js(
          `console.error("Warning: Each child in a list should have a unique \\"key\\" prop.");\nconsole.error("Could not save the todo");\ndocument.body.append("ok");\n`,
        );
      case "/src/missing-import.js":
        return js(`import "./gone.js";\n`);
      case "/src/reaches-out.js":
        return js(
          `fetch("http://127.0.0.1:${other.port}/steal").catch(() => {});\nnew WebSocket("ws://127.0.0.1:${other.port}/ws");\nimport("http://127.0.0.1:${other.port}/x.js").catch(() => {});\n`,
        );
      case "/src/stores.js":
        return js(`localStorage.setItem("left", "behind");\ndocument.cookie = "left=behind";\ndocument.body.append("stored");\n`);
      case "/src/reads.js":
        return js(
          `if (localStorage.getItem("left") || document.cookie.includes("left=")) console.error("state from an earlier check");\ndocument.body.append("read");\n`,
        );
      case "/src/slow.js":
        return js(`await fetch("/slow");\n`);
      case "/src/loops.js":
        return js(`for (;;) {}\n`);
      case "/src/meet.js":
        return js(`await fetch("/meet");\n`);
      case "/meet":
        // Held long enough that two projects' pages, started together on a busy machine, overlap here.
        meetNow++;
        meetMax = Math.max(meetMax, meetNow);
        await Bun.sleep(3_000);
        meetNow--;
        return new Response("done");
      case "/slow":
        slowNow++;
        slowMax = Math.max(slowMax, slowNow);
        await Bun.sleep(300);
        slowNow--;
        return new Response("done");
      default:
        return new Response("Not found", { status: 404 });
    }
  },
});
const base = `http://127.0.0.1:${app.port}`;
const browser = createPageBrowser({ setting: "auto", logger: silentLogger, idleMs: 60_000 });

afterAll(async () => {
  await browser.close();
  app.stop(true);
  other.stop(true);
});

/** The real user id of the running Chromium whose command line is `argv`. */
function browserUid(argv: string[]): number {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ") !== argv.join(" ")) continue;
      return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    } catch {
      // gone meanwhile
    }
  }
  return -1;
}

/** Chromium processes this test process started (its direct children), with their command lines. */
function childBrowsers(): string[][] {
  const found: string[][] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== process.pid) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (argv.some((a) => /chrom/i.test(a))) found.push(argv);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe.skipIf(!chromium)("the check's headless browser (real Chromium)", () => {
  test("a page whose script throws at render: that error, at the project's file and line", async () => {
    const problems = await browser.run("p1", `${base}/throws/`);
    expect(problems).toEqual([
      {
        source: "browser",
        message: expect.stringMatching(/^TypeError: Cannot read properties of undefined \(reading 'map'\)/),
        file: "src/render.js",
        line: 3,
        // The stack goes to the Problems list with it ("Fix with AI" quotes it).
        detail: expect.stringContaining("/src/render.js:3"),
      },
    ]);
  }, 60_000);

  test("a page that works: no problems", async () => {
    expect(await browser.run("p1", `${base}/works/`)).toEqual([]);
  }, 60_000);

  test("an unhandled rejection, console.error (a React-style warning among them) and a module that fails to load", async () => {
    const rejected = await browser.run("p1", `${base}/rejects/`);
    expect(rejected?.map((p) => p.message)).toEqual(["Error: Loading data failed: 404"]);
    const logged = await browser.run("p1", `${base}/logs/`);
    expect(logged?.map((p) => [p.source, p.message, p.file])).toEqual([
      ["browser", 'Warning: Each child in a list should have a unique "key" prop.', "src/logs.js"],
      ["browser", "Could not save the todo", "src/logs.js"],
    ]);
    const missing = await browser.run("p1", `${base}/missing-import/`);
    expect(missing).toEqual([
      { source: "browser", message: "Failed to load module script /src/gone.js (HTTP 404)", file: "src/gone.js", line: null, detail: null },
    ]);
  }, 60_000);

  test("the spare context made ahead for the next check is fresh: nothing an earlier check's page stored is there", async () => {
    expect(await browser.run("p7", `${base}/stores/`)).toEqual([]);
    // The next check of the project takes the spare made after the one before (same origin).
    expect(await browser.run("p7", `${base}/reads/`)).toEqual([]);
    expect(await browser.run("p7", `${base}/reads/`)).toEqual([]);
  }, 60_000);

  test("the app's code reaches no other origin: requests, sockets and imports elsewhere are refused, not reported", async () => {
    expect(await browser.run("p1", `${base}/reaches-out/`)).toEqual([]);
    await Bun.sleep(200);
    expect(otherHits).toBe(0);
  }, 60_000);

  test("one page at a time per project; other projects do not wait", async () => {
    slowMax = 0;
    await Promise.all([browser.run("p2", `${base}/slow/`), browser.run("p2", `${base}/slow/`), browser.run("p2", `${base}/slow/`)]);
    expect(slowMax).toBe(1);
    await Promise.all([browser.run("p3", `${base}/meet/`), browser.run("p4", `${base}/meet/`)]);
    expect(meetMax).toBe(2);
  }, 60_000);

  test("a page stuck in an endless loop is not judged, and holds nothing up: the next check runs", async () => {
    const short = createPageBrowser({ setting: "auto", logger: silentLogger, timeoutMs: 3_000 });
    try {
      const started = performance.now();
      expect(await short.run("p6", `${base}/loops/`)).toBeNull();
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(await short.run("p6", `${base}/works/`)).toEqual([]);
    } finally {
      await short.close();
    }
  }, 60_000);

  test("driven over a pipe, never a TCP debugging port; closed once idle", async () => {
    const idle = createPageBrowser({ setting: chromium!, logger: silentLogger, idleMs: 300 });
    const before = childBrowsers().length;
    expect(await idle.run("p5", `${base}/works/`)).toEqual([]);
    const started = childBrowsers();
    expect(started.length).toBeGreaterThan(before);
    for (const argv of started) {
      expect(argv).toContain("--remote-debugging-pipe");
      expect(argv.some((a) => a.startsWith("--remote-debugging-port"))).toBe(false);
      // Chromium keeps its own sandbox: never --no-sandbox (the server here is root: the browser runs as nobody).
      expect(argv).not.toContain("--no-sandbox");
    }
    if (process.getuid?.() === 0) for (const argv of started) expect(browserUid(argv)).toBe(BROWSER_UID);
    const deadline = Date.now() + 5_000;
    while (childBrowsers().length > before && Date.now() < deadline) await Bun.sleep(100);
    expect(childBrowsers().length).toBe(before);
  }, 30_000);
});

describe("without a browser", () => {
  test("'off', or a path where none is: the check gets null (it falls back to the crawl)", async () => {
    expect(browserPath("off")).toBeNull();
    expect(await createPageBrowser({ setting: "off", logger: silentLogger }).run("p", `${base}/throws/`)).toBeNull();
    expect(await createPageBrowser({ setting: "/nonexistent/chromium", logger: silentLogger }).run("p", `${base}/throws/`)).toBeNull();
  }, 60_000);
});
