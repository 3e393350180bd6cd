import { describe, expect, test } from "bun:test";
import { memoryApp } from "../../test/memory-app";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { restartAppTool } from "./restart-app";

describe("restart_app", () => {
  test("restarts a crashed app and says where it runs; streams Restarting → Restarted", async () => {
    const w = memoryWorkspace();
    const app = memoryApp(w.fileMap);
    app.crash(1, "boom\n");
    const p = toolContext({ ...w, app: app.runtime });
    const out = await p.call(restartAppTool, {});
    expect(out).toMatchObject({ ok: true, result: "The app was restarted and is running on port 5173.", summary: "Restarted: running on port 5173" });
    expect(app.calls.restart).toBe(1);
    expect(p.steps).toEqual([
      { line: "Restarting the app", status: "in_progress" },
      { line: "Restarted the app (running on port 5173)", status: "completed" },
    ]);
  });

  test("an app that does not come back is reported with the end of its log", async () => {
    const w = memoryWorkspace();
    const app = memoryApp(w.fileMap);
    app.crash(1, "SyntaxError: Unexpected token '}'\n", { restartFails: true });
    const out = await toolContext({ ...w, app: app.runtime }).call(restartAppTool, {});
    expect(out.result).toStartWith("The app was restarted but is crashed with exit code 1.\nEnd of its log:\n");
    expect(out.result).toContain("SyntaxError: Unexpected token '}'");
  });
});
