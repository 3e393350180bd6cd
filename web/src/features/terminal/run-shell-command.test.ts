import { expect, test } from "bun:test";
import { ApiError } from "../../api/api-error";
import { runShellCommand, type ShellDeps } from "./run-shell-command";

const signedIn = (run: ShellDeps["run"]): ShellDeps => ({ getToken: async () => "token", run });

test("runs the command in the project's sandbox and formats the result", async () => {
  const calls: Array<[string, string]> = [];
  const out = await runShellCommand(
    "p 1",
    "echo hello",
    {},
    signedIn(async (projectId, command) => {
      calls.push([projectId, command]);
      return { stdout: "hello\n", stderr: "", error: null };
    }),
  );
  expect(calls).toEqual([["p 1", "echo hello"]]);
  expect(out).toBe("hello\r\n");
});

test("signed out: prints 'Error: Not authenticated' and sends nothing", async () => {
  let sent = false;
  const out = await runShellCommand(
    "p",
    "ls",
    {},
    {
      getToken: async () => null,
      run: async () => {
        sent = true;
        return { stdout: "", stderr: "", error: null };
      },
    },
  );
  expect(sent).toBe(false);
  expect(out).toBe("\x1b[31mError: Not authenticated\x1b[0m\r\n");
});

test("a non-OK answer prints its text in red", async () => {
  const out = await runShellCommand(
    "p",
    "ls",
    {},
    signedIn(async () => {
      throw new ApiError(503, "dependency_unavailable", "Could not start a sandbox: no namespaces", "{}", "Service Unavailable");
    }),
  );
  expect(out).toBe("\x1b[31mError: Could not start a sandbox: no namespaces\x1b[0m\r\n");
});

test("a network failure prints its message, or 'Unknown error'", async () => {
  const failed = await runShellCommand(
    "p",
    "ls",
    {},
    signedIn(async () => {
      throw new TypeError("Failed to fetch");
    }),
  );
  expect(failed).toBe("\x1b[31mError: Failed to fetch\x1b[0m\r\n");
  const odd = await runShellCommand(
    "p",
    "ls",
    {},
    signedIn(async () => {
      throw "nope";
    }),
  );
  expect(odd).toBe("\x1b[31mError: Unknown error\x1b[0m\r\n");
});

test("the abort signal reaches the request", async () => {
  const controller = new AbortController();
  let seen: AbortSignal | undefined;
  await runShellCommand(
    "p",
    "sleep 30",
    { signal: controller.signal },
    signedIn(async (_p, _c, signal) => {
      seen = signal;
      return { stdout: "", stderr: "", error: null };
    }),
  );
  expect(seen).toBe(controller.signal);
});
