/**
 * report.js in real Chromium: a page whose ping the server answers `{ reload: true }` (it runs code from before a
 * change an agent's check waited for) reloads itself once, and a page answered with nothing stays as it is.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { browserPath } from "../../services/chat-runs/page-browser";
import { REPORTER_PATH, REPORTS_PATH } from "./inject";

const executablePath = browserPath("auto");
const script = readFileSync(new URL("./report.js", import.meta.url), "utf8");
let pageLoads = 0;
let reloadsToAsk = 0;
const pings: number[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/") {
      pageLoads++;
      return new Response(`<!doctype html><html><head><script src="${REPORTER_PATH}"></script></head><body><div id="root">app</div></body></html>`, {
        headers: { "content-type": "text/html" },
      });
    }
    if (path === REPORTER_PATH) return new Response(script, { headers: { "content-type": "text/javascript" } });
    if (path === REPORTS_PATH) {
      const { reports } = (await req.json()) as { reports: { kind: string; loadAgeMs?: number }[] };
      const ping = reports.find((r) => r.kind === "loaded");
      if (!ping) return new Response(null, { status: 204 });
      pings.push(ping.loadAgeMs ?? -1);
      if (reloadsToAsk > 0) {
        reloadsToAsk--;
        return Response.json({ reload: true });
      }
      return new Response(null, { status: 204 });
    }
    return new Response("Not found", { status: 404 });
  },
});
afterAll(() => server.stop(true));

describe.skipIf(!executablePath)("the reporter's reload answer (real Chromium)", () => {
  test("a page answered reload on its ping reloads once; answered nothing, it stays", async () => {
    const browser = await chromium.launch({ executablePath: executablePath!, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
    try {
      const page = await browser.newPage();
      reloadsToAsk = 1;
      await page.goto(`http://127.0.0.1:${server.port}/`);
      const deadline = Date.now() + 15_000;
      // The first ping (100 ms after load) is answered reload; the reloaded page pings again and is left alone.
      while (pings.length < 2 && Date.now() < deadline) await Bun.sleep(50);
      await Bun.sleep(500);
      expect(pageLoads).toBe(2);
      expect(pings.length).toBe(2);
      expect(await page.locator("#root").textContent()).toBe("app");
    } finally {
      await browser.close();
    }
  }, 30_000);
});
