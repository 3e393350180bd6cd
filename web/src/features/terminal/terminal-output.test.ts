import { expect, test } from "bun:test";
import { CLEAR_LINE, errorLine, executingFrame, formatShellResult, greeting, prompt, shortSandboxId } from "./terminal-output";

// What a person would see: the text with colour codes removed.
const visible = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");

test("the sandbox id is shortened to 8 characters", () => {
  expect(shortSandboxId("abcdef1234567890")).toBe("abcdef12");
  expect(shortSandboxId("abc")).toBe("abc");
});

test("the greeting names the sandbox service and the short id", () => {
  const text = visible(greeting("abcdef1234567890"));
  expect(text).toContain("E2B Sandbox");
  expect(text).toContain("abcdef12");
  expect(text).not.toContain("abcdef123");
});

test("the prompt reads '{project name} $ '", () => {
  expect(visible(prompt("My App"))).toBe("My App $ ");
});

test("every executing frame says Executing... and redraws its own line", () => {
  for (let n = 0; n < 12; n++) {
    expect(executingFrame(n).startsWith(CLEAR_LINE)).toBe(true);
    expect(visible(executingFrame(n))).toMatch(/^\r. Executing\.\.\.$/);
  }
  expect(executingFrame(0)).not.toBe(executingFrame(1));
});

test("stdout lines are plain, stderr lines red, each ending in CRLF", () => {
  const out = formatShellResult({ stdout: "a\nb\n", stderr: "oops\n", error: null });
  expect(out).toBe("a\r\nb\r\n\x1b[31moops\x1b[0m\r\n");
});

test("an error is printed last as red 'Error: ...'", () => {
  const out = formatShellResult({ stdout: "", stderr: "ls: cannot access 'x'", error: "Command exited with code 2" });
  expect(out).toBe("\x1b[31mls: cannot access 'x'\x1b[0m\r\n\x1b[31mError: Command exited with code 2\x1b[0m\r\n");
});

test("empty output prints nothing; CRLF and blank lines inside are kept as lines", () => {
  expect(formatShellResult({ stdout: "", stderr: "", error: null })).toBe("");
  expect(formatShellResult({ stdout: "a\r\n\r\nb", stderr: "", error: null })).toBe("a\r\n\r\nb\r\n");
});

test("errorLine is red and ends the line", () => {
  expect(errorLine("Not authenticated")).toBe("\x1b[31mError: Not authenticated\x1b[0m\r\n");
});
