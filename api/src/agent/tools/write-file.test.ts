import { describe, expect, test } from "bun:test";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { writeFileTool } from "./write-file";

describe("write_file", () => {
  test("creates, then replaces; streams 'Created …' then 'Edited …'; forgives a leading ./ or /", async () => {
    const w = memoryWorkspace();
    const p = toolContext(w);
    const created = await p.call(writeFileTool, { path: "./src/App.tsx", content: "export {};\n" });
    expect(created).toEqual({ ok: true, summary: "src/App.tsx", result: "Created src/App.tsx (11 bytes)." });
    const replaced = await p.call(writeFileTool, { path: "/src/App.tsx", content: "export const x = 1;\n" });
    expect(replaced.result).toBe("Updated src/App.tsx (20 bytes).");
    expect(p.steps).toEqual([
      { line: "Created src/App.tsx", status: "completed" },
      { line: "Edited src/App.tsx", status: "completed" },
    ]);
    expect(Object.fromEntries(w.fileMap)).toEqual({ "src/App.tsx": "export const x = 1;\n" });
  });

  test("an illegal path comes back as an error result, nothing written", async () => {
    const w = memoryWorkspace();
    const p = toolContext(w);
    const out = await p.call(writeFileTool, { path: "../etc/passwd", content: "x" });
    expect(out.ok).toBe(false);
    expect(out.result).toContain("invalid arguments for write_file: path:");
    const missing = await p.call(writeFileTool, { path: "a.txt" });
    expect(missing.result).toContain("content:");
    expect(w.fileMap.size).toBe(0);
  });

  test("append: a file written in parts (for files larger than one reply)", async () => {
    const w = memoryWorkspace();
    const p = toolContext(w);
    expect((await p.call(writeFileTool, { path: "big.ts", content: "part 1\n", append: true })).result).toBe("Appended 7 bytes to big.ts (7 bytes now).");
    expect((await p.call(writeFileTool, { path: "big.ts", content: "part 2\n", append: true })).result).toBe("Appended 7 bytes to big.ts (14 bytes now).");
    expect(w.fileMap.get("big.ts")).toBe("part 1\npart 2\n");
    expect(p.steps.map((s) => s.line)).toEqual(["Created big.ts", "Edited big.ts"]);
  });
});
