import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../lib/config";
import { toolHarness } from "../../test/tool-harness";
import { availableTools } from "./registry";
import { webSearchTool } from "./web-search";

// A small stand-in for SearXNG's JSON API.
const seen: URL[] = [];
let status = 200;
const searxng = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const url = new URL(req.url);
    seen.push(url);
    if (status !== 200) return new Response("nope", { status });
    if (url.pathname !== "/searx/search" || url.searchParams.get("format") !== "json") return new Response("not found", { status: 404 });
    const q = url.searchParams.get("q");
    if (q === "nothing") return Response.json({ query: q, results: [] });
    return Response.json({
      query: q,
      number_of_results: 2,
      results: [
        { title: "Vite config", url: "https://vite.dev/config/", content: "Configuring Vite. server.host …", engine: "duckduckgo" },
        { title: "Server options", url: "https://vite.dev/config/server-options", content: "server.allowedHosts", engine: "bing" },
      ],
    });
  },
});

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness({ env: { SEARXNG_URL: `http://127.0.0.1:${searxng.port}/searx` } });
}, 60_000);
afterAll(async () => {
  await h.close();
  searxng.stop(true);
});

describe("web_search", () => {
  test("asks SearXNG's JSON API and returns titles, URLs and snippets", async () => {
    const p = await h.project();
    const out = await p.call(webSearchTool, { query: "vite allowedHosts" });
    expect(out.ok).toBe(true);
    expect(seen.at(-1)!.searchParams.get("q")).toBe("vite allowedHosts");
    expect(out.result).toBe(
      'Results for "vite allowedHosts":\n' +
        "1. Vite config\n   https://vite.dev/config/\n   Configuring Vite. server.host …\n" +
        "2. Server options\n   https://vite.dev/config/server-options\n   server.allowedHosts",
    );
    expect(out.summary).toBe("vite allowedHosts (2 results)");
    expect((await p.call(webSearchTool, { query: "nothing" })).result).toBe('No results for "nothing".');
  });

  test("a failing or unreachable search service is an error for the model", async () => {
    const p = await h.project();
    status = 403;
    const forbidden = await p.call(webSearchTool, { query: "x" });
    status = 200;
    expect(forbidden.ok).toBe(false);
    expect(forbidden.result).toContain("HTTP 403 (is the json format enabled");
    const unreachable = webSearchTool.run({ query: "x" }, { ...p.ctx, search: { kind: "searxng", url: "http://127.0.0.1:9/" } });
    await expect(unreachable).rejects.toThrow("The search service could not be reached");
  });

  test("offered to the model only when a search backend is configured", () => {
    const base = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9", FIREBASE_PROJECT_ID: "demo-x" };
    expect(availableTools(loadConfig(base)).map((t) => t.name)).not.toContain("web_search");
    expect(availableTools(loadConfig({ ...base, SEARXNG_URL: "http://127.0.0.1:8888" })).map((t) => t.name)).toContain("web_search");
  });
});
