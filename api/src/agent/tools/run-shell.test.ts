import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sandboxSupport, toolHarness } from "../../test/tool-harness";
import { installTarget, runShellTool } from "./run-shell";
import { writeFileTool } from "./write-file";

const support = await sandboxSupport();
if (!support.ok) console.warn(`run_shell sandbox tests skipped: local sandboxes are unavailable here (${support.why})`);

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness();
}, 60_000);
afterAll(() => h.close(), 30_000);

describe("run_shell", () => {
  test("names what an install command installs (for the 'Installing …' / 'Installed …' steps)", () => {
    expect(installTarget("npm install axios react-router --save")).toBe("axios, react-router");
    expect(installTarget("npm i")).toBe("dependencies");
    expect(installTarget("bun add zod && bun run build")).toBe("zod");
    expect(installTarget("pip install requests")).toBe("requests");
    expect(installTarget("npm run dev")).toBeNull();
  });

  test.skipIf(!support.ok)(
    "foreground: exit code, stdout and stderr for the model; 'Ran shell: …' step; sandbox made on first need",
    async () => {
      const p = await h.project();
      const out = await p.call(runShellTool, { command: "echo hello; echo oops >&2; exit 3" });
      expect(out.ok).toBe(true);
      expect(out.summary).toBe("echo hello; echo oops >&2; exit 3");
      expect(out.result).toBe("Exit code 3 (failed).\nstdout:\nhello\nstderr:\noops");
      expect(p.steps).toEqual([{ line: "Ran shell: echo hello; echo oops >&2; exit 3 (failed)", status: "completed" }]);
      const project = (await (await p.user.request("GET", `/api/projects/${p.projectId}`)).json()) as { sandboxId: string | null };
      expect(project.sandboxId).toBeTruthy();
    },
    60_000,
  );

  test.skipIf(!support.ok)(
    "a file written by the run is in the sandbox for the next command, before and after the sandbox exists",
    async () => {
      const p = await h.project();
      await p.call(writeFileTool, { path: "data/a.txt", content: "first" });
      expect((await p.call(runShellTool, { command: "cat data/a.txt" })).result).toBe("Exit code 0 (success).\nstdout:\nfirst");
      await p.call(writeFileTool, { path: "data/a.txt", content: "second" });
      expect((await p.call(runShellTool, { command: "cat data/a.txt" })).result).toBe("Exit code 0 (success).\nstdout:\nsecond");
    },
    60_000,
  );

  test.skipIf(!support.ok)(
    "a foreground command past its time limit is killed and reported",
    async () => {
      const p = await h.project();
      const started = Date.now();
      const out = await p.call(runShellTool, { command: "echo before; sleep 20", timeoutSeconds: 1 });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(out.result).toStartWith("Timed out after 1 s (the command was killed).\nstdout:\nbefore");
    },
    60_000,
  );

  test.skipIf(!support.ok)(
    "background: a server is started, reported as 'Started: …', and answers on 0.0.0.0",
    async () => {
      const p = await h.project();
      const command = "python3 -u -m http.server 8123 --bind 0.0.0.0";
      const started = await p.call(runShellTool, { command, background: true });
      expect(started.summary).toBe(`Started: ${command}`);
      expect(started.result).toContain(`Started in the background: ${command}`);
      expect(started.result).toContain("Serving HTTP on 0.0.0.0 port 8123");
      expect(p.steps).toEqual([{ line: `Started: ${command}`, status: "completed" }]);
      const probe = await p.call(runShellTool, {
        command: `python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:8123/').status)"`,
      });
      expect(probe.result).toBe("Exit code 0 (success).\nstdout:\n200");
    },
    60_000,
  );

  test.skipIf(!support.ok)(
    "an install streams 'Installing …' then 'Installed …'",
    async () => {
      const p = await h.project();
      await p.call(writeFileTool, { path: "package.json", content: '{ "name": "x", "version": "1.0.0", "private": true }\n' });
      const out = await p.call(runShellTool, { command: "npm install --no-audit --no-fund --offline" });
      expect(out.result).toStartWith("Exit code 0 (success).");
      expect(p.steps.slice(1)).toEqual([
        { line: "Installing dependencies", status: "in_progress" },
        { line: "Installed dependencies", status: "completed" },
      ]);
    },
    60_000,
  );
});
