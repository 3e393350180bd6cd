import { describe, expect, test } from "bun:test";
import { OUTPUT_CANDIDATES } from "../services/publish/build-output";
import { isIgnoredPath } from "./ignored-paths";

describe("paths the sandbox sync ignores", () => {
  test("every build output folder publishing looks for is ignored at the project root", () => {
    for (const dir of OUTPUT_CANDIDATES) {
      expect(isIgnoredPath(`${dir}/index.html`)).toBe(true);
      expect(isIgnoredPath(`${dir}/assets/app-B2q4Gw9b.js`)).toBe(true);
    }
  });

  test("a source folder named out deeper down still syncs; dependencies are ignored anywhere", () => {
    expect(isIgnoredPath("src/out/page.ts")).toBe(false);
    expect(isIgnoredPath("output/index.html")).toBe(false);
    expect(isIgnoredPath("src/layout.ts")).toBe(false);
    expect(isIgnoredPath("packages/ui/node_modules/react/index.js")).toBe(true);
  });
});

describe("terminal noise", () => {
  test("shell and REPL histories and tool caches are ignored; look-alike source files are not", () => {
    for (const path of [".python_history", ".bash_history", ".node_repl_history", ".npm/_cacache/index-v5/x", ".cache/pip/http/y"]) {
      expect(isIgnoredPath(path)).toBe(true);
    }
    expect(isIgnoredPath("src/history.ts")).toBe(false);
    expect(isIgnoredPath("docs/bash_history.md")).toBe(false);
  });
});
