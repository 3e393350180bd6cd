import { describe, expect, test } from "bun:test";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { readFileTool } from "./read-file";

describe("read_file", () => {
  test("read_file returns the content; an empty file says so; a missing or binary file is an error result", async () => {
    const w = memoryWorkspace({ "notes/todo.md": "- milk\n", "empty.txt": "" });
    const p = toolContext(w);
    expect((await p.call(readFileTool, { path: "notes/todo.md" })).result).toBe("- milk\n");
    expect((await p.call(readFileTool, { path: "empty.txt" })).result).toBe("(empty.txt is empty)");
    const missing = await p.call(readFileTool, { path: "gone.md" });
    expect(missing.ok).toBe(false);
    expect(missing.result).toContain("No file at gone.md");
    w.files.read = async () => ({ content: "", binary: true, size: 70 });
    expect((await p.call(readFileTool, { path: "logo.png" })).result).toBe("Error: logo.png is a binary file (70 bytes); it cannot be read or edited as text.");
  });
});
