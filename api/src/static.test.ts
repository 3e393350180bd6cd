import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "./app";
import { testApp } from "./test/test-app";

let app: ReturnType<typeof createApp>;
let t: Awaited<ReturnType<typeof testApp>>;
const js = `console.log(${JSON.stringify("x".repeat(5000))});`;
beforeAll(async () => {
  t = await testApp();
  const webDist = mkdtempSync(join(tmpdir(), "dist-"));
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><div id=root></div>");
  writeFileSync(join(webDist, "assets", "main-abc123.js"), js);
  app = createApp({ ...t.deps, webDist });
}, 60_000);

describe("serving the built SPA", () => {
  test("hashed assets: cached for a year, gzipped when asked, plain otherwise", async () => {
    const gz = await app.request("/assets/main-abc123.js", { headers: { "accept-encoding": "gzip, br" } });
    expect(gz.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("content-type")).toStartWith("text/javascript");
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toBe(js);
    const plain = await app.request("/assets/main-abc123.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(js);
  });

  test("client routes get index.html, never cached", async () => {
    for (const path of ["/", "/projects", "/project/x/files"]) {
      const res = await app.request(path);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toBe("<!doctype html><div id=root></div>");
    }
  });

  test("large JSON answers are gzipped for clients that ask", async () => {
    const user = t.user("zip");
    for (let i = 0; i < 15; i++) await user.request("POST", "/api/projects", { name: `Project ${i}`, description: "d".repeat(200) });
    const res = await app.request("/api/projects", { headers: { authorization: `Bearer ${user.token}`, "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const list = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer()))));
    expect(list).toHaveLength(15);
  });
});
