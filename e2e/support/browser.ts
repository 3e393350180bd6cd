/**
 * Debian's Chromium driven by playwright-core, kept offline: Google's gapi loader is answered by the local
 * stand-in (e2e/gapi-stand-in.js), anything else not on loopback is aborted.
 */
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const GAPI_URL = /^https:\/\/apis\.google\.com\/js\/api\.js(\?|$)/;
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/** Routes at the context level, so the popup and the emulator's helper iframe are covered too. */
export async function newOfflineContext(browser: Browser, viewport: { width: number; height: number } = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  const gapiStandIn = await Bun.file(join(import.meta.dir, "..", "gapi-stand-in.js")).text();
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (GAPI_URL.test(url)) return route.fulfill({ status: 200, contentType: "text/javascript", body: gapiStandIn });
    const { protocol, hostname } = new URL(url);
    // *.localhost is loopback by definition: previews live there, on their own origins.
    if ((protocol === "http:" || protocol === "ws:") && (LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost"))) return route.continue();
    return route.abort("internetdisconnected");
  });
  return context;
}
