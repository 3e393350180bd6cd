import { describe, expect, test } from "bun:test";
import { isSafeDir, linkInside, parseListing, reportedOutputDir } from "./build-output";

describe("build output", () => {
  test("the folder the build tool reports (Vite's `dist/index.html  0.46 kB`)", () => {
    expect(reportedOutputDir("vite v8.0.0 building...\n\x1b[2mdist/\x1b[22mindex.html  0.46 kB\n")).toBe("dist"); // colours stripped
    expect(reportedOutputDir("vite v8.0.0\ndist/index.html                 0.46 kB │ gzip: 0.30 kB\n")).toBe("dist");
    expect(reportedOutputDir("wrote ./public/build/index.html")).toBe("public/build");
    expect(reportedOutputDir("../../etc/index.html")).toBeNull();
    expect(reportedOutputDir("nothing here")).toBeNull();
    expect(isSafeDir("a/b")).toBe(true);
    expect(isSafeDir("/abs")).toBe(false);
    expect(isSafeDir("a/../b")).toBe(false);
  });

  test("a symlink is inside the folder only when it resolves there", () => {
    expect(linkInside("home.html", "index.html")).toBe("index.html");
    expect(linkInside("a/b.js", "../c.js")).toBe("c.js");
    expect(linkInside("leak", "/etc/passwd")).toBeNull();
    expect(linkInside("a/leak", "../../x")).toBeNull();
    expect(linkInside("loop", ".")).toBeNull();
  });

  test("find's NUL-separated listing", () => {
    const out = "f\x0012\x00index.html\x00\x00d\x000\x00assets\x00\x00l\x0010\x00leak\x00/etc/passwd\x00";
    expect(parseListing(out)).toEqual([
      { kind: "file", size: 12, path: "index.html", target: "" },
      { kind: "dir", size: 0, path: "assets", target: "" },
      { kind: "link", size: 10, path: "leak", target: "/etc/passwd" },
    ]);
  });
});
