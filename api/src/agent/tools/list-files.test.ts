import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toolHarness } from "../../test/tool-harness";
import { listFilesTool } from "./list-files";
import { writeFileTool } from "./write-file";

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness();
}, 60_000);
afterAll(() => h.close());

describe("list_files", () => {
  test("list_files lists paths and sizes, optionally under a folder", async () => {
    const p = await h.project();
    expect((await p.call(listFilesTool, {})).result).toBe("The project has no files yet.");
    await p.call(writeFileTool, { path: "src/b.ts", content: "bb" });
    await p.call(writeFileTool, { path: "src/a.ts", content: "a" });
    await p.call(writeFileTool, { path: "index.html", content: "<p>" });
    expect((await p.call(listFilesTool, {})).result).toBe("3 files:\nindex.html (3 bytes)\nsrc/a.ts (1 bytes)\nsrc/b.ts (2 bytes)");
    expect((await p.call(listFilesTool, { folder: "src/" })).result).toBe("2 files:\nsrc/a.ts (1 bytes)\nsrc/b.ts (2 bytes)");
    expect((await p.call(listFilesTool, { folder: "lib" })).result).toBe("No files under lib/.");
  });
});
