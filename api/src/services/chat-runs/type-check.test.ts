import { describe, expect, test } from "bun:test";
import { runTypeCheck, typeCheckCommand } from "./type-check";

const result =
  (exitCode: number | null, stdout: string, timedOut = false) =>
  async () => ({ exitCode, stdout, stderr: "", timedOut, truncated: false });
const signal = new AbortController().signal;

describe("the project's type-check", () => {
  test("a typecheck script wins; else tsc when there is a tsconfig; else none", () => {
    expect(typeCheckCommand(JSON.stringify({ scripts: { typecheck: "tsc -b" } }), true)).toBe("npm run -s typecheck");
    expect(typeCheckCommand(JSON.stringify({ scripts: { dev: "vite" } }), true)).toContain("node_modules/typescript/bin/tsc --noEmit");
    expect(typeCheckCommand(JSON.stringify({ scripts: { dev: "vite" } }), false)).toBeNull();
    expect(typeCheckCommand("{ not json", false)).toBeNull();
  });

  test("tsc errors become build problems with file and line; a pass, a missing tsc and a time-out are none", async () => {
    const out =
      "src/App.tsx(2,24): error TS2307: Cannot find module './missing' or its corresponding type declarations.\nsrc/b.ts:5:1 - error TS2304: Cannot find name 'x'.\n";
    expect((await runTypeCheck(result(2, out), "tsc", signal)).problems).toEqual([
      { source: "build", file: "src/App.tsx", line: 2, message: "TS2307: Cannot find module './missing' or its corresponding type declarations." },
      { source: "build", file: "src/b.ts", line: 5, message: "TS2304: Cannot find name 'x'." },
    ]);
    expect(await runTypeCheck(result(0, ""), "tsc", signal)).toEqual({ problems: [], skipped: null });
    expect(await runTypeCheck(result(97, ""), "tsc", signal)).toEqual({ problems: [], skipped: "missing" });
    expect(await runTypeCheck(result(null, "", true), "tsc", signal)).toEqual({ problems: [], skipped: "slow" });
    const other = await runTypeCheck(result(1, "Something else broke"), "npm run -s typecheck", signal);
    expect(other.problems[0]!.message).toContain("The type-check `npm run -s typecheck` failed (exit code 1):\nSomething else broke");
  });
});
