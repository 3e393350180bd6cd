import { describe, expect, test } from "bun:test";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { readFileTool } from "./read-file";

describe("read_file", () => {
  test("numbered lines; an empty file says so; a missing or binary file is an error result", async () => {
    const w = memoryWorkspace({ "notes/todo.md": "- milk\n- eggs\n", "empty.txt": "" });
    const p = toolContext(w);
    expect((await p.call(readFileTool, { path: "notes/todo.md" })).result).toBe("1\t- milk\n2\t- eggs");
    expect((await p.call(readFileTool, { path: "empty.txt" })).result).toBe("(empty.txt is empty)");
    const missing = await p.call(readFileTool, { path: "gone.md" });
    expect(missing.ok).toBe(false);
    expect(missing.result).toContain("No file at gone.md");
    w.files.read = async () => ({ content: "", binary: true, size: 70 });
    expect((await p.call(readFileTool, { path: "logo.png" })).result).toBe("Error: logo.png is a binary file (70 bytes); it cannot be read or edited as text.");
  });

  test("a line range, with a header; a range past the end is an error; a huge file stops and says where to go on", async () => {
    const text = Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join("\n");
    const w = memoryWorkspace({ "a.txt": text, "big.txt": `${"x".repeat(1_000)}\n`.repeat(100) });
    const p = toolContext(w);
    const part = await p.call(readFileTool, { path: "a.txt", startLine: 99, endLine: 101 });
    expect(part).toEqual({ ok: true, summary: "a.txt:99-101", result: "a.txt: lines 99-101 of 120\n 99\tline 99\n100\tline 100\n101\tline 101" });
    expect((await p.call(readFileTool, { path: "a.txt", startLine: 119 })).result).toBe("a.txt: lines 119-120 of 120\n119\tline 119\n120\tline 120");
    expect((await p.call(readFileTool, { path: "a.txt", startLine: 200 })).result).toContain("has 120 lines; startLine 200 is past its end");
    const big = (await p.call(readFileTool, { path: "big.txt" })).result;
    // Below the loop's 20,000-character cut of a result, so a read is never cut in the middle.
    expect(big).toStartWith("big.txt: lines 1-15 of 100\n");
    expect(big).toEndWith("(stopped at line 15 of 100 to save space; read on with startLine: 16)");
    expect(big.length).toBeLessThan(20_000);
  });

  test("with a context window that has little room left, a read stops there, at a line end", async () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i + 1} of the file`).join("\n");
    const p = toolContext(memoryWorkspace({ "a.txt": text }), { resultChars: () => 1_000 });
    const out = (await p.call(readFileTool, { path: "a.txt", startLine: 10 })).result;
    expect(out.length).toBeLessThan(1_200);
    expect(out).toStartWith("a.txt: lines 10-");
    expect(out).toMatch(/\n\s*\d+\tline \d+ of the file\n… \(stopped at line \d+ of 500 to save space; read on with startLine: \d+\)$/);
  });
});
