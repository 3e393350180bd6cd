import { describe, expect, test } from "bun:test";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { editFileTool } from "./edit-file";

describe("edit_file", () => {
  test("replaces the one exact match (single search/replace, as before)", async () => {
    const w = memoryWorkspace({ "app.js": "const a = 1;\nconst b = 2;\n" });
    const p = toolContext(w);
    const out = await p.call(editFileTool, { path: "app.js", search: "const b = 2;", replace: "const b = 3;" });
    expect(out).toEqual({ ok: true, summary: "app.js", result: "Edited app.js at line 2 (26 bytes now)." });
    expect(w.fileMap.get("app.js")).toBe("const a = 1;\nconst b = 3;\n");
    expect(p.steps.at(-1)).toEqual({ line: "Edited app.js", status: "completed" });
  });

  test("a list of edits is applied in order and written once; one failing edit changes nothing", async () => {
    const w = memoryWorkspace({ "app.js": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    const p = toolContext(w);
    const out = await p.call(editFileTool, {
      path: "app.js",
      edits: [
        { search: "const a = 1;", replace: "const a = 10;" },
        { search: "const c = 3;", replace: "const c = 30;" },
        { search: "const a = 10;\nconst b = 2;", replace: "const a = 10;\nconst b = 20;" },
      ],
    });
    expect(out.result).toBe("Edited app.js 3 edits (42 bytes now).");
    expect(w.fileMap.get("app.js")).toBe("const a = 10;\nconst b = 20;\nconst c = 30;\n");

    const failed = await p.call(editFileTool, {
      path: "app.js",
      edits: [
        { search: "const a = 10;", replace: "const a = 0;" },
        { search: "const zzz = 1;", replace: "x" },
      ],
    });
    expect(failed.ok).toBe(false);
    expect(failed.result).toStartWith("Error: Edit 2 of 2: the search text was not found in app.js");
    expect(w.fileMap.get("app.js")).toBe("const a = 10;\nconst b = 20;\nconst c = 30;\n");
  });

  test("indentation or spacing that differs from the file still lands, re-indented to the file's indentation", async () => {
    const file = "function f() {\n    if (x) {\n        return 1;\n    }\n}\n";
    const w = memoryWorkspace({ "f.js": file });
    const p = toolContext(w);
    const out = await p.call(editFileTool, { path: "f.js", search: "if (x) {\n  return 1;\n}", replace: "if (x) {\n  return 2;\n}" });
    expect(out.result).toBe("Edited f.js at line 2 (52 bytes now); edit 1 matched ignoring whitespace.");
    expect(w.fileMap.get("f.js")).toBe("function f() {\n    if (x) {\n      return 2;\n    }\n}\n");
    const spaced = await p.call(editFileTool, { path: "f.js", search: "return   2;", replace: "return 3;" });
    expect(spaced.ok).toBe(true);
    expect(w.fileMap.get("f.js")).toContain("      return 3;");
  });

  test("no match at all: the nearest lines, numbered, come back to the model", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `const value${i} = compute(${i});`);
    const w = memoryWorkspace({ "v.js": `${lines.join("\n")}\n` });
    const p = toolContext(w);
    const out = await p.call(editFileTool, { path: "v.js", search: "const value17 = compute(seventeen);", replace: "x" });
    expect(out.ok).toBe(false);
    expect(out.result).toContain("not even ignoring whitespace");
    expect(out.result).toContain("18\tconst value17 = compute(17);");
    expect(out.result).toContain("16\tconst value15 = compute(15);");
    expect(out.result).not.toContain("const value5 =");
  });

  test("search text ambiguous, empty, or no such file: a clear error and no change", async () => {
    const w = memoryWorkspace({ "x.txt": "foo bar foo\n" });
    const p = toolContext(w);
    const ambiguous = await p.call(editFileTool, { path: "x.txt", search: "foo", replace: "q" });
    expect(ambiguous.result).toContain("appears 2 times in x.txt");
    expect(ambiguous.result).toContain("Include more surrounding lines");
    const empty = await p.call(editFileTool, { path: "x.txt", search: "", replace: "q" });
    expect(empty.result).toContain("search must not be empty");
    const none = await p.call(editFileTool, { path: "x.txt" });
    expect(none.result).toContain("give edits");
    const nofile = await p.call(editFileTool, { path: "nope.txt", search: "a", replace: "b" });
    expect(nofile.result).toBe("Error: No file at nope.txt. Use list_files to see the project's files.");
    expect(Object.fromEntries(w.fileMap)).toEqual({ "x.txt": "foo bar foo\n" });
    expect(p.steps).toEqual([]);
  });
});
