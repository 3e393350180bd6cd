import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { grantedAccess } from "../../test/access";
import { listProjectFiles } from "../../services/files";
import { sandboxSupport, toolHarness } from "../../test/tool-harness";
import { runCodeCommand, runCodeTool } from "./run-code";

const support = await sandboxSupport();
if (!support.ok) console.warn(`run_code sandbox tests skipped: local sandboxes are unavailable here (${support.why})`);

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness();
}, 60_000);
afterAll(() => h.close(), 30_000);

describe("run_code", () => {
  test("the snippet goes to a temp file through a quoted heredoc (no shell expansion of the code)", () => {
    const command = runCodeCommand("python", 'print("$HOME `x`")', "abc");
    expect(command).toBe(
      'f="${TMPDIR:-/tmp}/agent-run-abc.py"\ncat > "$f" <<\'AGENT_CODE_abc\'\nprint("$HOME `x`")\nAGENT_CODE_abc\npython3 "$f"; code=$?; rm -f "$f"; exit $code',
    );
  });

  test.skipIf(!support.ok)(
    "python, javascript and typescript run and return their output",
    async () => {
      const p = await h.project();
      const py = await p.call(runCodeTool, { language: "python", code: 'import sys\nprint(sum(range(10)), "$HOME")\nprint("warn", file=sys.stderr)' });
      expect(py.summary).toBe("python (3 lines)");
      expect(py.result).toBe("Exit code 0 (success).\nstdout:\n45 $HOME\nstderr:\nwarn");
      const js = await p.call(runCodeTool, { language: "javascript", code: "console.log([1, 2, 3].map((n) => n * 2).join(','));" });
      expect(js.result).toBe("Exit code 0 (success).\nstdout:\n2,4,6");
      const ts = await p.call(runCodeTool, {
        language: "typescript",
        code: "const greet = (name: string): string => `hi ${name}`;\nconsole.log(greet('ts'));",
      });
      expect(ts.result).toBe("Exit code 0 (success).\nstdout:\nhi ts");
    },
    60_000,
  );

  test.skipIf(!support.ok)(
    "errors come back with the exit code and the traceback; nothing lands in the project's files",
    async () => {
      const p = await h.project();
      const out = await p.call(runCodeTool, { language: "python", code: "raise ValueError('bad input')" });
      expect(out.ok).toBe(true);
      expect(out.result).toStartWith("Exit code 1 (failed).\nstderr:\nTraceback");
      expect(out.result).toContain("ValueError: bad input");
      const slow = await p.call(runCodeTool, { language: "javascript", code: "setInterval(() => {}, 1000);", timeoutSeconds: 1 });
      expect(slow.result).toStartWith("Timed out after 1 s");
      await Bun.sleep(300); // let any sandbox → storage sync happen
      expect(await listProjectFiles(h.t.deps, grantedAccess(p.user.uid, p.projectId))).toEqual([]);
    },
    60_000,
  );
});
