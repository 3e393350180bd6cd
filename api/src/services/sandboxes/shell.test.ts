/** The shell service with an in-memory sandbox: what runs, how, and what the terminal is told. */
import type { ProjectAccess } from "../../lib/project-access";
import { grantedAccess } from "../../test/access";
import { describe, expect, test } from "bun:test";
import type { RunResult } from "../../sandbox/types";
import { memorySandbox } from "../../test/memory-sandbox";
import { backgroundCommand, runShellCommand, SHELL_OUTPUT_CAP, SHELL_TIMEOUT_MS } from "./shell";

const result = (r: Partial<RunResult>): RunResult => ({ exitCode: 0, stdout: "", stderr: "", timedOut: false, truncated: false, ...r });

function harness(answer: Partial<RunResult> = {}) {
  const box = memorySandbox();
  box.answer(() => result(answer));
  const ensured: [string, string][] = [];
  const sandboxes = {
    ensure: async ({ ownerId, projectId }: ProjectAccess) => {
      ensured.push([ownerId, projectId]);
      return box.sandbox;
    },
  };
  return {
    box,
    ensured,
    run: (command: string, signal?: AbortSignal, timeoutMs?: number) => runShellCommand(sandboxes, grantedAccess("u1", "p1"), command, signal, timeoutMs),
  };
}

describe("shell service", () => {
  test("a trailing lone & starts a background process; && and & inside do not", () => {
    expect(backgroundCommand("npm run dev &")).toBe("npm run dev");
    expect(backgroundCommand("python3 -m http.server 8000 &  ")).toBe("python3 -m http.server 8000");
    expect(backgroundCommand("echo a && echo b")).toBeNull();
    expect(backgroundCommand("a & b")).toBeNull();
    expect(backgroundCommand("true &&")).toBeNull();
  });

  test("a background command returns at once and says what it started", async () => {
    const h = harness();
    expect(await h.run("npm run dev &")).toEqual({ stdout: "Started in the background: npm run dev\n", stderr: "", error: null });
    expect(h.box.runs.map((r) => [r.command, r.options.background])).toEqual([["npm run dev", true]]);
    expect(h.ensured).toEqual([["u1", "p1"]]);
  });

  test("a foreground command runs with the time limit and the caller's signal", async () => {
    const h = harness({ stdout: "out\n", stderr: "err\n" });
    const controller = new AbortController();
    expect(await h.run("ls", controller.signal)).toEqual({ stdout: "out\n", stderr: "err\n", error: null });
    expect(h.box.runs[0]!.options).toEqual({ timeoutMs: SHELL_TIMEOUT_MS, signal: controller.signal });
  });

  test("exit codes, time-outs and cut output are explained; a killed command (null exit) is not an error", async () => {
    expect((await harness({ exitCode: 2 }).run("false")).error).toBe("Command exited with code 2");
    expect((await harness({ exitCode: null, timedOut: true }).run("sleep 99", undefined, 5_000)).error).toBe(
      "Command timed out after 5 s and was stopped. Start long-running servers in the background by ending the command with &.",
    );
    expect((await harness({ truncated: true }).run("yes")).error).toBe("Output was longer than 1 MB and was cut.");
    expect((await harness({ exitCode: null }).run("sleep 1")).error).toBeNull();
  });

  test("a command cut short by the sandbox's limits answers that as its error, even when its shell exited 0", async () => {
    const limitHit = "The sandbox hit its process limit (128 processes, 96 for one command): some processes could not start.";
    expect((await harness({ exitCode: 0, limitHit }).run("for i in $(seq 200); do sleep 3 & done; wait")).error).toBe(limitHit);
    const died = "The sandbox stopped while this command ran; it is recreated on the next command.";
    expect((await harness({ exitCode: 137, limitHit: died }).run(":(){ :|:& };:")).error).toBe(died);
  });

  test("each stream is capped for the terminal", async () => {
    const long = "x".repeat(SHELL_OUTPUT_CAP + 10);
    const answer = await harness({ stdout: long, stderr: "short" }).run("yes x");
    expect(answer.stdout).toBe(`${"x".repeat(SHELL_OUTPUT_CAP)}\n[output cut at ${SHELL_OUTPUT_CAP / 1024} KB]`);
    expect(answer.stderr).toBe("short");
  });
});
