import { describe, expect, test } from "bun:test";
import { logProblems } from "./log-problems";

describe("problems from the app log", () => {
  test("Vite's import error with its Plugin/File lines is one build problem with the file and line", () => {
    const problems = logProblems([
      "  VITE v8.0.0  ready in 312 ms",
      '12:01:02 PM [vite] Internal server error: Failed to resolve import "./missing" from "src/App.tsx". Does the file exist?',
      "  Plugin: vite:import-analysis",
      "  File: /home/user/project/src/App.tsx:1:23",
      '  1  |  import { Header } from "./missing";',
      "12:01:05 PM [vite] hmr update /src/App.tsx",
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ source: "build", file: "src/App.tsx", line: 1 });
    expect(problems[0]!.message).toStartWith('12:01:02 PM [vite] Internal server error: Failed to resolve import "./missing"');
    expect(problems[0]!.message).toContain("Plugin: vite:import-analysis");
  });

  test("a Node exception with its stack is a server problem; lines that only mention errors are not problems", () => {
    const problems = logProblems([
      "Server listening on 3000, 0 errors",
      "/home/user/project/server.js:4",
      "TypeError: Cannot read properties of undefined (reading 'port')",
      "    at Object.<anonymous> (/home/user/project/server.js:4:20)",
      "    at Module._compile (node:internal/modules/cjs/loader:1554:14)",
      "window.onerror handler installed",
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ source: "server", file: "server.js", line: 4 });
    expect(problems[0]!.message).toContain("at Object.<anonymous>");
  });

  test("a line that merely contains the word 'error' is no problem; error-shaped lines are", () => {
    for (const line of [
      "GET /api/errors 200 in 3 ms",
      "Loaded 3 error messages for the form",
      "errorHandler registered on /api",
      "An error boundary wraps the page",
    ]) {
      expect([line, logProblems([line])]).toEqual([line, []]);
    }
    for (const line of [
      "error: listen EADDRINUSE: address already in use 0.0.0.0:3000",
      "npm error code ERESOLVE",
      '\u2718 [ERROR] Could not resolve "./x"',
      "[error] db connection refused",
    ]) {
      expect([line, logProblems([line]).length]).toEqual([line, 1]);
    }
  });
});
