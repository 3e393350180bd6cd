import { describe, expect, test } from "bun:test";
import { memoryApp } from "../../test/memory-app";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { readLogsTool } from "./read-logs";

describe("read_logs", () => {
  test("the app's state and the end of its log, cut to maxBytes", async () => {
    const w = memoryWorkspace();
    const app = memoryApp(w.fileMap);
    app.crash(1, `${"noise\n".repeat(200)}Error: listen EADDRINUSE: address already in use 0.0.0.0:5173\n`);
    const out = await toolContext({ ...w, app: app.runtime }).call(readLogsTool, { maxBytes: 300 });
    expect(out.ok).toBe(true);
    expect(out.result).toStartWith("The app is crashed with exit code 1.\nEnd of its log:\n");
    expect(out.result).toEndWith("Error: listen EADDRINUSE: address already in use 0.0.0.0:5173");
    expect(out.result).not.toContain("VITE ready");
  });

  test("no app runtime (no sandboxes) is an error the model can read", async () => {
    const out = await toolContext(memoryWorkspace()).call(readLogsTool, {});
    expect(out).toMatchObject({ ok: false, result: expect.stringContaining("no running app") });
  });
});
