import { describe, expect, test } from "bun:test";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { listFilesTool } from "./list-files";

describe("list_files", () => {
  test("list_files lists paths and sizes, sorted, optionally under a folder", async () => {
    expect((await toolContext(memoryWorkspace()).call(listFilesTool, {})).result).toBe("The project has no files yet.");
    const p = toolContext(memoryWorkspace({ "src/b.ts": "bb", "src/a.ts": "a", "index.html": "<p>" }));
    expect((await p.call(listFilesTool, {})).result).toBe("3 files:\nindex.html (3 bytes)\nsrc/a.ts (1 bytes)\nsrc/b.ts (2 bytes)");
    expect((await p.call(listFilesTool, { folder: "src/" })).result).toBe("2 files:\nsrc/a.ts (1 bytes)\nsrc/b.ts (2 bytes)");
    expect((await p.call(listFilesTool, { folder: "lib" })).result).toBe("No files under lib/.");
  });
});
