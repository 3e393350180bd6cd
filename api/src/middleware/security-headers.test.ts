import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../app";
import { testApp } from "../test/test-app";

let app: ReturnType<typeof createApp>;
const inline = `(function(){document.documentElement.classList.add("dark")})();`;
beforeAll(async () => {
  const t = await testApp();
  const webDist = mkdtempSync(join(tmpdir(), "dist-"));
  writeFileSync(join(webDist, "index.html"), `<!doctype html><script>${inline}</script><script type="module" src="/assets/a.js"></script>`);
  app = createApp({ ...t.deps, webDist });
}, 60_000);

describe("security headers", () => {
  test("the SPA document gets a CSP that allows its inline script by hash and forbids framing the app", async () => {
    const res = await app.request("/projects");
    expect(res.headers.get("content-type")).toStartWith("text/html");
    const csp = res.headers.get("content-security-policy")!;
    const hash = new Bun.CryptoHasher("sha256").update(inline).digest("base64");
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("frame-src http://*.app.localhost:3000");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("origin-agent-cluster")).toBe("?1");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  test("API answers carry nosniff and a request id; a sane incoming id is kept", async () => {
    const res = await app.request("/api/health", { headers: { "x-request-id": "caddy-1234567890" } });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toBe("caddy-1234567890");
    const fresh = await app.request("/api/health", { headers: { "x-request-id": "bad id\n" } });
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
