import { describe, expect, test } from "bun:test";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { editFileTool } from "./edit-file";

describe("edit_file", () => {
  test("replaces the one exact match", async () => {
    const w = memoryWorkspace({ "app.js": "const a = 1;\nconst b = 2;\n" });
    const p = toolContext(w);
    const out = await p.call(editFileTool, { path: "app.js", search: "const b = 2;", replace: "const b = 3;" });
    expect(out).toEqual({ ok: true, summary: "app.js", result: "Edited app.js at line 2 (26 bytes now)." });
    expect(w.fileMap.get("app.js")).toBe("const a = 1;\nconst b = 3;\n");
    expect(p.steps.at(-1)).toEqual({ line: "Edited app.js", status: "completed" });
  });

  test("search text missing, ambiguous, empty, or no such file: a clear error and no change", async () => {
    const w = memoryWorkspace({ "x.txt": "foo bar foo\n" });
    const p = toolContext(w);
    const missing = await p.call(editFileTool, { path: "x.txt", search: "baz", replace: "q" });
    expect(missing.result).toBe(
      "Error: The search text was not found in x.txt. Nothing was changed. Read the file again with read_file and copy the exact text, whitespace included.",
    );
    const ambiguous = await p.call(editFileTool, { path: "x.txt", search: "foo", replace: "q" });
    expect(ambiguous.result).toContain("appears 2 times in x.txt");
    expect(ambiguous.result).toContain("Include more surrounding lines");
    const empty = await p.call(editFileTool, { path: "x.txt", search: "", replace: "q" });
    expect(empty.result).toContain("search must not be empty");
    const nofile = await p.call(editFileTool, { path: "nope.txt", search: "a", replace: "b" });
    expect(nofile.result).toBe("Error: No file at nope.txt. Use list_files to see the project's files.");
    expect(Object.fromEntries(w.fileMap)).toEqual({ "x.txt": "foo bar foo\n" });
    expect(p.steps).toEqual([]);
  });
});
