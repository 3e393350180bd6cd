import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { crawlPage } from "./page-check";

// A small dev server with Vite's shapes: an HTML page with module scripts, modules importing modules, and
// Vite's 500 error page (the error as JSON in a script) for a module that does not compile.
const VITE_ERROR = {
  message: 'Failed to resolve import "./missing" from "src/App.tsx". Does the file exist?',
  id: "/home/user/project/src/App.tsx",
  frame: '1  |  import { Header } from "./missing";',
  loc: { file: "/home/user/project/src/App.tsx", line: 1, column: 23 },
};
const pages: Record<string, { status: number; type: string; body: string }> = {
  "/": {
    status: 200,
    type: "text/html",
    body: '<script type="module" src="/@vite/client"></script><div id="root"></div><script type="module" src="/src/main.tsx"></script>',
  },
  "/src/main.tsx": {
    status: 200,
    type: "text/javascript",
    body: 'import React from "/node_modules/.vite/deps/react.js";\nimport App from "/src/App.tsx";\nimport "./index.css";\n',
  },
  "/src/index.css": { status: 200, type: "text/javascript", body: "const css = 'body{}';" },
  "/src/App.tsx": {
    status: 500,
    type: "text/html",
    body: `<html><script type="module">\n const error = ${JSON.stringify(VITE_ERROR)}\n try {} catch {}</script></html>`,
  },
};
const requested: string[] = [];
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      requested.push(path);
      const page = pages[path] ?? { status: 404, type: "text/plain", body: "Not found" };
      return new Response(page.body, { status: page.status, headers: { "content-type": page.type } });
    },
  });
});
afterAll(() => server.stop(true));

const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);

describe("loading the page without a browser", () => {
  test("follows module scripts and their imports; a module that fails to compile is a build problem with file and line", async () => {
    const problems = await crawlPage(get);
    expect(problems).toEqual([{ source: "build", message: `${VITE_ERROR.message}\n${VITE_ERROR.frame}`, file: "src/App.tsx", line: 1 }]);
    // Dev-server internals and pre-bundled dependencies are not fetched; relative imports are.
    expect(requested).toEqual(["/", "/src/main.tsx", "/src/App.tsx", "/src/index.css"]);
  });

  test("a page that answers 500 is the problem; a healthy page has none", async () => {
    pages["/src/App.tsx"] = { status: 200, type: "text/javascript", body: "export default 1;" };
    expect(await crawlPage(get)).toEqual([]);
    const broken = await crawlPage(async () => new Response("<h1>Internal Server Error</h1>", { status: 500, headers: { "content-type": "text/html" } }));
    expect(broken).toEqual([{ source: "build", message: "Loading / answered HTTP 500: Internal Server Error", file: null, line: null }]);
  });
});
