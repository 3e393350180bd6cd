import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toolHarness } from "../../test/tool-harness";
import { readFileTool } from "./read-file";
import { writeFileTool } from "./write-file";

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness();
}, 60_000);
afterAll(() => h.close());

describe("read_file", () => {
  test("read_file returns the content; a missing file is an error result", async () => {
    const p = await h.project();
    await p.call(writeFileTool, { path: "notes/todo.md", content: "- milk\n" });
    expect((await p.call(readFileTool, { path: "notes/todo.md" })).result).toBe("- milk\n");
    await p.call(writeFileTool, { path: "empty.txt", content: "" });
    expect((await p.call(readFileTool, { path: "empty.txt" })).result).toBe("(empty.txt is empty)");
    const missing = await p.call(readFileTool, { path: "gone.md" });
    expect(missing.ok).toBe(false);
    expect(missing.result).toContain("No file at gone.md");
  });

});
