/**
 * The Publish dialog's secret scan and own domains, end to end: real Chromium, the real app serving web/dist,
 * the real Auth emulator, and a DNS server on loopback (dns2) the app asks through DNS_SERVERS. A project whose
 * client file holds its secret's value is refused with the finding named and "Publish anyway" goes live; an own
 * domain shows its TXT record, Verify shows "record not found" until the record is there, then it is verified
 * and the site answers on that Host. Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { type TestDnsServer, startDnsServer } from "../api/src/test/dns-server";
import { callApi, runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";
import { appDataDir } from "./support/data-dir";
import { startOwnStack } from "./support/own-stack";
import { bearerToken, signInWithGoogle } from "./support/sign-in";

const PROJECT_ID = "demo-e2e-publish-domains";
const ARTIFACTS = join(import.meta.dir, "artifacts");
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let dns: TestDnsServer;
let page: Page;
let token: string;
let projectId: string;
const secret = `wx-live-${crypto.randomUUID()}`;

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

beforeAll(async () => {
  const dataDir = appDataDir("e2e-publish-domains-", cleanups);
  dns = await startDnsServer();
  cleanups.push(() => dns.close());
  ({ app, page } = await startOwnStack({
    projectId: PROJECT_ID,
    dataDir,
    cleanups,
    env: { DNS_SERVERS: dns.address },
    viewport: { width: 1440, height: 900 },
  }));
  page.setDefaultTimeout(20_000);
  await signInWithGoogle(page, app.url);
  token = await bearerToken(page, app.url);
  projectId = (await api<Project>("POST", "/api/projects", { name: "Scan E2E" })).id;
  await api("POST", `/api/files/${projectId}`, { path: "index.html", content: '<h1>Weather today</h1><script src="/app.js"></script>' });
  await api("POST", `/api/files/${projectId}`, { path: "app.js", content: `fetch("https://api.weather.test/today?key=${secret}");\n` });
  await api("PUT", `/api/projects/${projectId}/secrets/WEATHER_KEY`, { value: secret });
}, 300_000);

afterAll(() => runCleanups(cleanups), 30_000);

describe("the Publish dialog: secret findings and own domains", () => {
  test("a secret in a client file is named with Publish anyway; an own domain is verified through DNS and serves the site", async () => {
    try {
      // From the chat header: the Preview view waits for a sandbox, which this static project does not need.
      await page.goto(`${app.url}/project/${projectId}/chat`);
      await page.getByTestId("chat-header").getByTestId("publish-button").click();
      await page.getByTestId("publish-dialog").waitFor();
      const slug = `scan-${crypto.randomUUID().slice(0, 8)}`;
      await page.getByLabel("Site name").fill(slug);
      await page.getByTestId("publish-start").click();
      const findings = page.getByTestId("scan-findings");
      await findings.waitFor({ timeout: 60_000 });
      await findings.getByText("app.js:1 · project-secret · the value of the project secret WEATHER_KEY").waitFor();
      expect(await page.getByTestId("publish-dialog").textContent()).not.toContain(secret);
      await page.screenshot({ path: join(ARTIFACTS, "publish-scan-findings.png") });
      await page.getByTestId("publish-anyway").click();
      await page.getByTestId("publish-live-url").waitFor({ timeout: 60_000 });
      await page.getByTestId("publish-history").getByText("Published with 1 secret finding").waitFor();

      const domain = `shop-${crypto.randomUUID().slice(0, 8)}.example.com`;
      await page.getByLabel("Serve the site on a domain of yours too").fill("localhost");
      await page.getByText("names this machine").waitFor();
      await page.getByLabel("Serve the site on a domain of yours too").fill(domain);
      await page.getByTestId("own-domain-add").click();
      const row = page.getByTestId("own-domain");
      await row.getByText(`_appbuilder.${domain}`).waitFor();
      const value = (await row.locator("code").nth(1).textContent())!;
      expect(value).toMatch(/^appbuilder-verify=/);
      await row.getByTestId("own-domain-verify").click();
      await row.getByTestId("own-domain-error").getByText(`record not found: looked up TXT _appbuilder.${domain} on ${dns.address}`).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, "publish-domain-pending.png") });

      dns.txt.set(`_appbuilder.${domain}`, [value]);
      await row.getByTestId("own-domain-verify").click();
      await row.getByText("Verified").waitFor();
      await page.screenshot({ path: join(ARTIFACTS, "publish-domain-verified.png") });
      // The site on that Host (the browser cannot resolve the name; the request carries it as a proxy would).
      const deadline = Date.now() + 10_000;
      let body = "";
      while (Date.now() < deadline && !body.includes("Weather today")) {
        body = await fetch(`${app.url}/`, { headers: { host: domain } }).then((r) => r.text());
        if (!body.includes("Weather today")) await Bun.sleep(200);
      }
      expect(body).toContain("Weather today");
      expect((await fetch(`${app.url}/api/tls/ask?domain=${domain}`)).status).toBe(200);
    } catch (error) {
      await page.screenshot({ path: join(ARTIFACTS, "publish-domains-failure.png") }).catch(() => {});
      console.error(`--- app output ---\n${app.output().slice(-4000)}`);
      throw error;
    }
  }, 300_000);
});
