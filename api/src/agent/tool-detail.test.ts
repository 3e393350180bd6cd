import { describe, expect, test } from "bun:test";
import { toolDetail } from "./tool-detail";

describe("toolDetail", () => {
  test("an edit opens to its removed and added text; one edit or a list", () => {
    expect(toolDetail("edit_file", JSON.stringify({ path: "src/App.tsx", search: "Hello", replace: "Hi" }), "Edited")).toEqual({
      kind: "diff",
      path: "src/App.tsx",
      edits: [{ removed: "Hello", added: "Hi" }],
    });
    const two = toolDetail(
      "edit_file",
      JSON.stringify({
        path: "a.ts",
        edits: [
          { search: "a", replace: "b" },
          { search: "c", replace: "" },
        ],
      }),
      "",
    );
    expect(two).toMatchObject({
      kind: "diff",
      edits: [
        { removed: "a", added: "b" },
        { removed: "c", added: "" },
      ],
    });
  });

  test("a written file opens to a link; a command to the command and its output; other tools to nothing", () => {
    expect(toolDetail("write_file", JSON.stringify({ path: "src/a.ts", content: "x" }), "Created")).toEqual({ kind: "file", path: "src/a.ts" });
    expect(toolDetail("run_shell", JSON.stringify({ command: "npm test" }), "Exit code 0 (success).\nstdout:\nok")).toEqual({
      kind: "command",
      command: "npm test",
      output: "Exit code 0 (success).\nstdout:\nok",
    });
    expect(toolDetail("read_file", JSON.stringify({ path: "a" }), "x")).toBeUndefined();
    expect(toolDetail("write_file", "not json", "")).toBeUndefined();
  });
});
