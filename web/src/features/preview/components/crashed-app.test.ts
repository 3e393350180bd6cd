import { describe, expect, test } from "bun:test";
import type { ProcessInfo } from "@shared/schemas/processes";
import { crashFixPrompt } from "./crashed-app";

describe("crashFixPrompt", () => {
  test("names the command, its exit and its last output without colour codes", () => {
    const app = { name: "app", command: "node server.js", status: "crashed", exitCode: 1, restarts: 0 } as unknown as ProcessInfo;
    const text = crashFixPrompt(app, [
      { t: "", stream: "stderr", text: "\u001b[31mTypeError: x is not a function\u001b[0m" },
      { t: "", stream: "stderr", text: "    at server.js:3" },
    ]);
    expect(text).toStartWith("The app crashed: `node server.js` exited with code 1. Its last output:");
    expect(text).toContain("TypeError: x is not a function\n    at server.js:3");
    expect(text).not.toContain("\u001b");
  });
});
