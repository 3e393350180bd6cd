import { describe, expect, test } from "bun:test";
import { contentTypeOf, isCompressible, isHashedAsset } from "./content-types";

describe("content types", () => {
  test("by extension, with charset for text; unknown is octet-stream", () => {
    expect(contentTypeOf("index.html")).toBe("text/html; charset=utf-8");
    expect(contentTypeOf("assets/a.JS")).toBe("text/javascript; charset=utf-8");
    expect(contentTypeOf("logo.svg")).toBe("image/svg+xml");
    expect(contentTypeOf("font.woff2")).toBe("font/woff2");
    expect(contentTypeOf("LICENSE")).toBe("application/octet-stream");
    expect(isCompressible("text/css; charset=utf-8")).toBe(true);
    expect(isCompressible("image/png")).toBe(false);
  });

  test("hashed asset names (Vite, webpack) are told from plain ones", () => {
    for (const name of ["assets/index-B2q4Gw9b.js", "assets/index-D_kq-a1Z.css", "static/js/main.3f2a1b9c.js", "assets/logo-CwOc1nFd.svg"]) {
      expect(isHashedAsset(name)).toBe(true);
    }
    for (const name of ["my-component.js", "react-dom.production.min.js", "index.html", "assets/index-B2q4Gw9b.html", "favicon.ico"]) {
      expect(isHashedAsset(name)).toBe(false);
    }
  });
});
