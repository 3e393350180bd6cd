import { describe, expect, test } from "bun:test";
import { memoryApp } from "../../test/memory-app";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { getProblemsTool } from "./get-problems";

describe("get_problems", () => {
  test("lists the app's problems with source, file and line; none once they are fixed", async () => {
    const w = memoryWorkspace({ "src/main.tsx": 'import App from "./App";\nimport "./styles.css";\n' });
    const p = toolContext({ ...w, app: memoryApp(w.fileMap).runtime });
    const broken = await p.call(getProblemsTool, {});
    expect(broken.summary).toBe("2 problems");
    expect(broken.result).toBe(
      '2 problems:\n1. [build] src/main.tsx:1 — Failed to resolve import "./App" from "src/main.tsx". Does the file exist?\n' +
        '2. [build] src/main.tsx:2 — Failed to resolve import "./styles.css" from "src/main.tsx". Does the file exist?',
    );
    w.fileMap.set("src/App.tsx", "export default 1;");
    w.fileMap.set("src/styles.css", "");
    expect((await p.call(getProblemsTool, {})).result).toBe("No problems found: the app shows no errors.");
  });

  test("a page that was only fetched (no browser on the server) is not said to show no errors", async () => {
    const w = memoryWorkspace({ "src/App.tsx": "export default 1;\n" });
    const p = toolContext({ ...w, app: memoryApp(w.fileMap, { browser: false }).runtime });
    expect((await p.call(getProblemsTool, {})).result).toBe(
      "No problems found: the app compiles, but its page was not run in a browser, so errors at run time are not known.",
    );
  });
});
