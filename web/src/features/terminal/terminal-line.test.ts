import { describe, expect, test } from "bun:test";
import { applyInput, ERASE_ONE } from "./terminal-line";

describe("typing", () => {
  test("printable characters are added to the line and echoed", () => {
    expect(applyInput("", "ls")).toEqual({ line: "ls", echo: "ls", outcome: null });
    expect(applyInput("ls", " -la")).toEqual({ line: "ls -la", echo: " -la", outcome: null });
  });

  test("a pasted chunk with Unicode is kept as typed", () => {
    expect(applyInput("echo ", "héllo ✓")).toEqual({ line: "echo héllo ✓", echo: "héllo ✓", outcome: null });
  });

  test("a tab is typed as a space", () => {
    expect(applyInput("a", "\tb")).toEqual({ line: "a b", echo: " b", outcome: null });
  });

  test("arrow keys and other escape sequences are ignored, not printed", () => {
    expect(applyInput("ls", "\x1b[A\x1b[D\x1bOH\x1b[3~x")).toEqual({ line: "lsx", echo: "x", outcome: null });
  });

  test("other control characters do nothing", () => {
    expect(applyInput("ls", "\x04\x0c")).toEqual({ line: "ls", echo: "", outcome: null });
  });
});

describe("Backspace", () => {
  test("deletes one character and erases it on screen", () => {
    expect(applyInput("lss", "\x7f")).toEqual({ line: "ls", echo: ERASE_ONE, outcome: null });
    expect(applyInput("lss", "\b")).toEqual({ line: "ls", echo: ERASE_ONE, outcome: null });
  });

  test("on an empty line does nothing (never erases the prompt)", () => {
    expect(applyInput("", "\x7f\x7f")).toEqual({ line: "", echo: "", outcome: null });
  });

  test("removes a whole astral character, not half of it", () => {
    expect(applyInput("hi 🙂", "\x7f")).toEqual({ line: "hi ", echo: ERASE_ONE, outcome: null });
  });
});

describe("Enter", () => {
  test("runs the trimmed command and clears the line", () => {
    expect(applyInput("  echo hello  ", "\r")).toEqual({ line: "", echo: "", outcome: { kind: "run", command: "echo hello" } });
  });

  test("an empty or blank line only re-prompts", () => {
    expect(applyInput("", "\r").outcome).toEqual({ kind: "reprompt" });
    expect(applyInput("   ", "\r").outcome).toEqual({ kind: "reprompt" });
  });

  test("typed text before Enter in the same chunk is echoed and run", () => {
    expect(applyInput("ec", "ho hi\r")).toEqual({ line: "", echo: "ho hi", outcome: { kind: "run", command: "echo hi" } });
  });

  test("input after Enter in the same chunk is dropped (one command at a time)", () => {
    expect(applyInput("", "ls\rrm -rf x\r")).toEqual({ line: "", echo: "ls", outcome: { kind: "run", command: "ls" } });
  });

  test("a newline counts as Enter", () => {
    expect(applyInput("pwd", "\n").outcome).toEqual({ kind: "run", command: "pwd" });
  });
});

describe("Ctrl+C", () => {
  test("cancels the line", () => {
    expect(applyInput("rm -rf", "\x03")).toEqual({ line: "", echo: "", outcome: { kind: "cancel" } });
  });

  test("cancels an empty line too", () => {
    expect(applyInput("", "\x03").outcome).toEqual({ kind: "cancel" });
  });
});
