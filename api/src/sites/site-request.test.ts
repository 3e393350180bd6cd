import { describe, expect, test } from "bun:test";
import { rawHttp } from "../test/raw-http";
import { hidesDotSegments, RAW_SEGMENT_DEPTH, rawPathOf, rawSegmentRoutes, siteSlugOf, sitePath } from "./site-request";

describe("site hosts and paths", () => {
  test("the slug comes from <slug>.<domain>, with or without a port; other hosts are not sites", () => {
    expect(siteSlugOf("todo.sites.localhost:3000", "sites.localhost")).toBe("todo");
    expect(siteSlugOf("TODO.Sites.Example.com", "sites.example.com")).toBe("todo");
    expect(siteSlugOf("sites.localhost:3000", "sites.localhost")).toBe("");
    expect(siteSlugOf("a.b.sites.localhost", "sites.localhost")).toBe("");
    expect(siteSlugOf("localhost:3000", "sites.localhost")).toBeNull();
    expect(siteSlugOf("5173-abcdefgh.localhost", "sites.localhost")).toBeNull();
    expect(siteSlugOf("evilsites.localhost", "sites.localhost")).toBeNull();
    expect(siteSlugOf(null, "sites.localhost")).toBeNull();
  });

  test("paths are decoded once; dot segments, NUL, backslashes, bad escapes and empty segments are refused", () => {
    expect(sitePath("/")).toEqual({ ok: true, path: "" });
    expect(sitePath("/assets/a%20b.js")).toEqual({ ok: true, path: "assets/a b.js" });
    expect(sitePath("/docs/")).toEqual({ ok: true, path: "docs/" });
    for (const bad of ["/..", "/a/../b", "/%2e%2e/x", "/a/%2E%2E/b", "/./a", "/a%00", "/a%5cb", "/%zz", "//x", "/a//b", "/a%0a"]) {
      expect(sitePath(bad)).toEqual({ ok: false });
    }
  });

  test("the raw path is read as written, without the query", () => {
    expect(rawPathOf("http://h:3000/a/%2e%2e/b?x=1#y")).toBe("/a/%2e%2e/b");
    expect(rawPathOf("http://h")).toBe("/");
  });

  test("a real Bun.serve with the raw-segment routes sees the dot segments req.url hides; plain paths pass", async () => {
    const seen = (hidden: boolean) => (req: Request) => Response.json({ hidden, url: new URL(req.url).pathname });
    const server = Bun.serve({
      port: 0,
      routes: rawSegmentRoutes({
        segments: (req: Request & { params: Record<string, string> }) => seen(hidesDotSegments(req.params))(req),
        tooDeep: seen(true),
      }),
      fetch: seen(false),
    });
    try {
      const ask = async (path: string) =>
        JSON.parse((await rawHttp(server.port!, { host: "x.sites.localhost", path })).body) as { hidden: boolean; url: string };
      // Bun resolves these in req.url (so a check on req.url alone is blind to them); the routes are not.
      for (const path of ["/%2e%2e/x", "/a/%2E%2e/x", "/../x", "/./x", "/a/.%2e", "/a\\..\\x"]) {
        const answer = await ask(path);
        expect({ path, ...answer }).toMatchObject({ path, hidden: true });
      }
      expect(await ask("/%2e%2e/x")).toEqual({ hidden: true, url: "/x" });
      for (const path of ["/", "/x", "/a/b.c/d", "/v1..2/...", "/assets/app-1.js?v=..", `/${"d/".repeat(RAW_SEGMENT_DEPTH - 1)}x`]) {
        expect({ path, hidden: (await ask(path)).hidden }).toEqual({ path, hidden: false });
      }
      expect((await ask(`/${"d/".repeat(RAW_SEGMENT_DEPTH)}x`)).hidden).toBe(true);
    } finally {
      server.stop(true);
    }
  });
});
