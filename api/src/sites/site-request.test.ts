import { describe, expect, test } from "bun:test";
import { rawPathOf, siteSlugOf, sitePath } from "./site-request";

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
});
