import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toolHarness } from "../../test/tool-harness";
import { editFileTool } from "./edit-file";
import { writeFileTool } from "./write-file";

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness();
}, 60_000);
afterAll(() => h.close());

describe("edit_file", () => {
  test("replaces the one exact match", async () => {
    const p = await h.project();
    await p.call(writeFileTool, { path: "app.js", content: "const a = 1;\nconst b = 2;\n" });
    const out = await p.call(editFileTool, { path: "app.js", search: "const b = 2;", replace: "const b = 3;" });
    expect(out).toEqual({ ok: true, summary: "app.js", result: "Edited app.js at line 2 (26 bytes now)." });
    expect(await p.file("app.js")).toBe("const a = 1;\nconst b = 3;\n");
    expect(p.steps.at(-1)).toEqual({ line: "Edited app.js", status: "completed" });
  });

  test("search text missing, ambiguous, empty, or no such file: a clear error and no change", async () => {
    const p = await h.project();
    await p.call(writeFileTool, { path: "x.txt", content: "foo bar foo\n" });
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
    expect(await p.file("x.txt")).toBe("foo bar foo\n");
  });
});
