/**
 * The templates' dev-only source tags (api/templates/react/files/vite-source-tags.ts), run through real Vite
 * on a copy of the react template: the dev server's App.tsx carries `data-src="src/App.tsx:<line>"` and the
 * component's name on its elements, and `vite build` (what Publish runs) carries none. The fullstack template
 * ships the same file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, createServer } from "vite";
import { tagSource } from "../../../templates/react/files/vite-source-tags";

const TEMPLATES = join(import.meta.dir, "../../../templates");
const ROOT_MODULES = join(import.meta.dir, "../../../../node_modules");

describe("source tags", () => {
  test("HTML elements get their file:line and component; components and tagged elements are left alone", () => {
    const code = [
      'import Card from "./Card";', // 1
      "// ünïcödé before the elements", // 2
      "export default function App() {", // 3
      "  return (", // 4
      '    <main className="p-4">', // 5
      "      <h1>Hello</h1>", // 6
      "      <Card title={<b>x</b>} />", // 7
      '      <p data-src="mine">kept</p>', // 8
      "    </main>", // 9
      "  );", // 10
      "}", // 11
      "const Footer = () => <footer>bye</footer>;", // 12
      "export const list = (items: string[]) => items.map((i) => <li key={i}>{i}</li>);", // 13
    ].join("\n");
    const out = tagSource(code, "src/App.tsx");
    expect(out).toContain('<main data-src="src/App.tsx:5" data-component="App" className="p-4">');
    expect(out).toContain('<h1 data-src="src/App.tsx:6" data-component="App">Hello</h1>');
    expect(out).toContain('<Card title={<b data-src="src/App.tsx:7" data-component="App">x</b>} />');
    expect(out).toContain('<p data-src="mine">kept</p>');
    expect(out).toContain('<footer data-src="src/App.tsx:12" data-component="Footer">bye</footer>');
    // Not inside a component: named after the file.
    expect(out).toContain('<li data-src="src/App.tsx:13" data-component="App" key={i}>');
  });

  test("code that does not parse is passed on untouched (Vite reports the error)", () => {
    const broken = "export default function App() { return <main>; }";
    expect(tagSource(broken, "src/App.tsx")).toBe(broken);
  });

  test("the fullstack template ships the same plugin", () => {
    const read = (t: string) => readFileSync(join(TEMPLATES, t, "files/vite-source-tags.ts"), "utf8");
    expect(read("fullstack")).toBe(read("react"));
  });

  describe("the react template through Vite", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "source-tags-"));
      cpSync(join(TEMPLATES, "react/files"), dir, { recursive: true });
      symlinkSync(ROOT_MODULES, join(dir, "node_modules"), "dir");
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test("the dev server tags App.tsx's elements", async () => {
      const server = await createServer({
        root: dir,
        configFile: join(dir, "vite.config.ts"),
        logLevel: "silent",
        server: { middlewareMode: true, ws: false },
      });
      try {
        const app = await server.transformRequest("/src/App.tsx");
        const source = readFileSync(join(dir, "src/App.tsx"), "utf8").split("\n");
        const h1Line = source.findIndex((l) => l.includes("<h1")) + 1;
        expect(app?.code).toContain(`"data-src": "src/App.tsx:${h1Line}"`);
        expect(app?.code).toContain('"data-component": "App"');
      } finally {
        await server.close();
      }
    }, 60_000);

    test("a production build (vite build, as Publish runs it) has no tags", async () => {
      const outDir = join(dir, "dist");
      await build({ root: dir, configFile: join(dir, "vite.config.ts"), logLevel: "silent", build: { outDir, emptyOutDir: true } });
      const assets = readdirSync(join(outDir, "assets")).filter((f) => f.endsWith(".js"));
      const js = assets.map((f) => readFileSync(join(outDir, "assets", f), "utf8")).join("\n");
      expect(js).toContain("Hello from React");
      expect(js).not.toContain("data-src");
      expect(js).not.toContain("data-component");
    }, 60_000);
  });
});
