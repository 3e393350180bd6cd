import { describe, expect, test } from "bun:test";
import { fixRequest } from "./fix-request";

describe("Fix with AI", () => {
  test("the message names the failure and carries the end of the log, where the errors are", () => {
    const log = `${"noise\n".repeat(2000)}src/App.tsx(3,5): error TS1005: ')' expected.\nThe build failed (exit code 1).\n`;
    const text = fixRequest(log);
    expect(text).toStartWith("Publishing failed");
    expect(text).toContain("error TS1005");
    expect(text).toContain("…");
    expect(text.length).toBeLessThan(6500);
  });
});
