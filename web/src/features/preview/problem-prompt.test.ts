import { expect, test } from "bun:test";
import type { Problem } from "@shared/schemas/problems";
import { fixPrompt, problemPlace } from "./problem-prompt";

const problem = (over: Partial<Problem> = {}): Problem => ({
  id: "1",
  source: "browser",
  message: "Uncaught Error: boom",
  file: "src/App.tsx",
  line: 7,
  firstSeen: "2025-01-01T00:00:00.000Z",
  count: 1,
  detail: null,
  foundByCheck: false,
  ...over,
});

test("one problem is quoted with its source, place and stack", () => {
  expect(fixPrompt([problem({ count: 3, detail: "Error: boom\n    at App (src/App.tsx:7:11)" })])).toBe(
    "Fix this problem in the app's preview:\n\n[browser] Uncaught Error: boom — src/App.tsx:7 (seen 3 times)\n```\nError: boom\n    at App (src/App.tsx:7:11)\n```",
  );
});

test("several are numbered; a problem without a file has no place", () => {
  const text = fixPrompt([problem(), problem({ id: "2", source: "server", message: "Error: listen EADDRINUSE", file: null, line: null })]);
  expect(text).toBe("Fix these 2 problems in the app's preview:\n\n1. [browser] Uncaught Error: boom — src/App.tsx:7\n\n2. [server] Error: listen EADDRINUSE");
  expect(problemPlace({ file: "src/a.ts", line: null })).toBe("src/a.ts");
});

test("a long list is cut to a size the chat takes", () => {
  const many = Array.from({ length: 100 }, (_, i) => problem({ id: String(i), detail: "x".repeat(500) }));
  expect(fixPrompt(many).length).toBeLessThan(8_100);
});
