/** The dev server log classifier, on output captured from Vite 8, esbuild, tsc and Node. */
import { describe, expect, test } from "bun:test";
import { classifyOutput } from "./classify-output";

const at = Date.parse("2025-01-01T10:00:00Z");
const lines = (text: string, stream = "stderr") => text.split("\n").map((t, i) => ({ t: at + i, stream, text: t }));
const brief = (text: string) => classifyOutput(lines(text)).map(({ source, message, file, line }) => ({ source, message, file, line }));

const VITE_RESOLVE = `1:00:55 PM [vite] Internal server error: Failed to resolve import "./Missing" from "src/main.ts". Does the file exist?
  Plugin: vite:import-analysis
  File: /home/user/project/src/main.ts:1:14
  1  |  import x from "./Missing";
     |                 ^
  2  |  console.log(x);
  3  |  
      at TransformPluginContext._formatLog (file:///home/user/project/node_modules/vite/dist/node/chunks/node.js:8865:39)
      at async loadAndTransform (file:///home/user/project/node_modules/vite/dist/node/chunks/node.js:20112:26)
1:00:55 PM [vite] (client) Pre-transform error: Failed to resolve import "./Missing" from "src/main.ts". Does the file exist?
  Plugin: vite:import-analysis
  File: /home/user/project/src/main.ts:1:14
  1  |  import x from "./Missing";`;

const VITE_PARSE = `1:00:55 PM [vite] Internal server error: Transform failed with 1 error:

\u001b[31m[PARSE_ERROR] \u001b[0mUnexpected token
   \u001b[38;5;246m╭\u001b[0m\u001b[38;5;246m─\u001b[0m\u001b[38;5;246m[\u001b[0m src/bad.ts:1:18 \u001b[38;5;246m]\u001b[0m
   │
 1 │ export const a = ;
\u001b[38;5;246m───╯\u001b[0m

  Plugin: vite:oxc
  File: /home/user/project/src/bad.ts
      at transformWithOxc (file:///home/user/project/node_modules/vite/dist/node/chunks/node.js:7673:19)`;

const NODE_CRASH = `file:///home/user/project/server.js:5
    throw new Error("boom at start");
    ^

Error: boom at start
    at file:///home/user/project/server.js:5:11
    at ModuleJob.run (node:internal/modules/esm/module_job:263:25)

Node.js v20.19.2`;

describe("classifyOutput", () => {
  test("Vite's resolve error: a build problem at the importing file and line, once per log entry", () => {
    expect(brief(VITE_RESOLVE)).toEqual([
      { source: "build", message: 'Failed to resolve import "./Missing" from "src/main.ts". Does the file exist?', file: "src/main.ts", line: 1 },
      { source: "build", message: 'Failed to resolve import "./Missing" from "src/main.ts". Does the file exist?', file: "src/main.ts", line: 1 },
    ]);
    const [first] = classifyOutput(lines(VITE_RESOLVE));
    expect(first!.detail).toContain('import x from "./Missing"');
    expect(first!.seenAt.getTime()).toBe(at);
  });

  test("a parse error (colours and box drawing stripped) says what failed, where", () => {
    expect(brief(VITE_PARSE)).toEqual([
      { source: "build", message: "Transform failed with 1 error: [PARSE_ERROR] Unexpected token", file: "src/bad.ts", line: 1 },
    ]);
  });

  test("a Node crash at start is a server problem at the first frame in the project", () => {
    expect(brief(NODE_CRASH)).toEqual([{ source: "server", message: "Error: boom at start", file: "server.js", line: 5 }]);
  });

  test("esbuild, TypeScript and a bare resolve error are build problems with file and line", () => {
    expect(brief(`✘ [ERROR] Expected ";" but found "x"\n\n    src/App.tsx:3:7:\n      3 │ let a b\n        ╵        ^`)).toEqual([
      { source: "build", message: 'Expected ";" but found "x"', file: "src/App.tsx", line: 3 },
    ]);
    expect(brief("src/App.tsx(12,5): error TS2304: Cannot find name 'foo'.")).toEqual([
      { source: "build", message: "src/App.tsx(12,5): error TS2304: Cannot find name 'foo'.", file: "src/App.tsx", line: 12 },
    ]);
    expect(brief('Failed to resolve import "lodash" from "src/util.ts". Does the file exist?')).toEqual([
      { source: "build", message: 'Failed to resolve import "lodash" from "src/util.ts". Does the file exist?', file: "src/util.ts", line: null },
    ]);
  });

  test("TypeErrors with a stack, EADDRINUSE and npm errors are server problems", () => {
    expect(brief("TypeError: Cannot read properties of undefined (reading 'map')\n    at handler (/home/user/project/api/routes.js:42:17)")).toEqual([
      { source: "server", message: "TypeError: Cannot read properties of undefined (reading 'map')", file: "api/routes.js", line: 42 },
    ]);
    expect(brief("Error: listen EADDRINUSE: address already in use 0.0.0.0:5173")[0]).toMatchObject({ source: "server", file: null });
    expect(brief('npm error Missing script: "dev"')[0]).toMatchObject({ source: "server", message: 'npm error Missing script: "dev"' });
  });

  test("ordinary output is no problem", () => {
    const quiet = `
  VITE v8.3.8  ready in 532 ms

  ➜  Local:   http://localhost:5173/
1:02:03 PM [vite] (client) hmr update /src/App.tsx
Server listening on port 3000
GET /api/items 200 3ms
the word error in a sentence is fine`;
    expect(classifyOutput(lines(quiet, "stdout"))).toEqual([]);
  });
});
