/**
 * The import checker: the repository keeps every rule, and each rule bites — a fixture tree holds one breaking
 * import per rule (built from the rules tables themselves, so a new rule is proved too) and each is reported.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { checkLayers, importsOf, layerOf, NARROW, RULES, VENDORS } from "./layers";

const ROOT = resolve(import.meta.dir, "..");

/** A folder of the fixture tree in each layer. */
const dirOf = (layer: string) =>
  layer === "web" ? "web/src" : layer === "shared" ? "shared/src" : layer === "api:root" ? "api/src" : `api/src/${layer.slice(4)}`;
const LAYERS = [...new Set([...Object.keys(RULES), ...Object.values(RULES).flatMap((r) => [...r.may, ...(r.types ?? [])]), "api:root", "api:test"])];

/** Writes a fixture repository: the project's tsconfig plus an `@api/*` alias, one target module per layer. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  const tsconfig = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8"));
  tsconfig.compilerOptions.paths = { ...tsconfig.compilerOptions.paths, "@api/*": ["api/src/*"] };
  const all: Record<string, string> = { "tsconfig.json": JSON.stringify(tsconfig) };
  for (const layer of LAYERS) all[`${dirOf(layer)}/target.ts`] = "export const target = 1;\nexport type Target = number;\n";
  for (const [path, text] of Object.entries({ ...all, ...files })) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
const check = (files: Record<string, string>) => {
  const root = fixture(files);
  roots.push(root);
  return checkLayers(root).map((v) => `${v.from} → ${v.specifier}: ${v.rule}`);
};
const spec = (from: string, to: string) => {
  const rel = relative(dirname(from), to).replace(/\.ts$/, "");
  return rel.startsWith(".") ? rel : `./${rel}`;
};

describe("layer rules", () => {
  test("the repository keeps them", () => {
    const broken = checkLayers(ROOT);
    expect(broken.map((v) => `${v.from} → ${v.specifier}: ${v.rule}`)).toEqual([]);
  }, 60_000); // parsing and resolving ~1,000 files takes seconds on a busy machine

  test("every row of the layer table bites: a code import of a layer it may not import is reported", () => {
    const files: Record<string, string> = {};
    const expected: string[] = [];
    for (const [layer, rule] of Object.entries(RULES)) {
      const forbidden = LAYERS.find((l) => l !== "api:test" && !rule.may.includes(l) && RULES[l]);
      if (!forbidden) continue;
      const from = `${dirOf(layer)}/breaks-${layer.replace(":", "-")}.ts`;
      const to = `${dirOf(forbidden)}/target.ts`;
      files[from] = `import { target } from "${spec(from, to)}";\nexport const x = target;\n`;
      expected.push(`${from} → ${spec(from, to)}: ${layer} may import`);
    }
    const broken = check(files);
    expect(expected.length).toBe(Object.keys(RULES).length);
    for (const line of expected) expect(broken.some((b) => b.startsWith(line))).toBe(true);
    expect(broken.length).toBe(expected.length);
  });

  test("a layer whose types alone are allowed: `import type`, `{ type A }` and `export type` pass, code and `import()` do not", () => {
    const from = "web/src/uses-api.ts";
    const broken = check({
      [from]: [
        `import type { Target } from "../../api/src/target";`,
        `import { type Target as T2 } from "../../api/src/target";`,
        `export type { Target as T3 } from "../../api/src/target";`,
        `// import { target } from "../../api/src/target"; (a comment is not an import)`,
        `const s = 'import { target } from "../../api/src/target"';`,
        `import { target } from "../../api/src/target";`,
        `const lazy = () => import("../../api/src/target");`,
        `export const all = [target, lazy, s];`,
      ].join("\n"),
      // A type import of a layer outside `types` is still a break: the web knows only the app's types.
      "web/src/uses-db.ts": `export type Q = import("../../api/src/db/target").Target;\n`,
    });
    expect(broken.sort()).toEqual([
      expect.stringContaining(`${from} → ../../api/src/target: web may import`),
      expect.stringContaining(`${from} → ../../api/src/target: web may import`),
      expect.stringContaining(`web/src/uses-db.ts → ../../api/src/db/target: web may import`),
    ]);
  });

  test("imports are resolved by the compiler with the tsconfig paths, so an alias cannot hide a break", () => {
    const broken = check({
      "web/src/aliased.ts": `import { target } from "@api/db/target";\nexport const t = target;\n`,
      "shared/src/fine.ts": `import { target } from "@shared/target";\nexport const t = target;\n`,
    });
    expect(broken).toEqual([expect.stringContaining("web/src/aliased.ts → @api/db/target: web may import")]);
  });

  test("production code never imports test helpers; tests may", () => {
    const broken = check({
      "api/src/services/uses-test.ts": `import { target } from "../test/target";\nexport const t = target;\n`,
      "api/src/services/uses-test.test.ts": `import { target } from "../test/target";\nimport { target as db } from "../routes/target";\nexport const t = [target, db];\n`,
    });
    expect(broken).toEqual([expect.stringContaining("api/src/services/uses-test.ts → ../test/target: production code never imports test helpers")]);
  });

  test("each vendor SDK is imported by its one wrapping file alone", () => {
    const files: Record<string, string> = {};
    const second = (vendor: string, owner: string) => `${dirname(owner)}/second-${vendor.replace(/\W/g, "-")}.ts`;
    for (const [vendor, owner] of Object.entries(VENDORS)) {
      files[owner] = `${files[owner] ?? ""}import * as sdk${Object.keys(files).length} from "${vendor}";\n`;
      files[second(vendor, owner)] = `import type { X } from "${vendor}/sub";\nexport type Y = X;\n`;
    }
    const broken = check(files);
    for (const [vendor, owner] of Object.entries(VENDORS)) {
      expect(broken).toContain(
        `${second(vendor, owner)} → ${vendor}/sub: ${vendor} is used through ${owner} only, so a second provider or an upgrade touches one file`,
      );
    }
    expect(broken.length).toBe(Object.keys(VENDORS).length);
  });

  test("the narrow rules bite: the agent's lib files and packages, the file service's way to sandboxes", () => {
    const broken = check({
      "api/src/lib/errors.ts": "export class AppError extends Error {}\n",
      "api/src/lib/validate.ts": "export const v = 1;\n",
      "api/src/sandbox/index.ts": "export const s = 1;\n",
      "api/src/services/sandboxes/sync.ts": "export const s = 1;\n",
      "api/src/services/other.ts": `import { s } from "./sandboxes/sync";\nexport const o = s;\n`,
      "api/src/agent/loop.ts": [
        `import { AppError } from "../lib/errors";`,
        `import { v } from "../lib/validate";`,
        `import { z } from "zod";`,
        `import { Hono } from "hono";`,
        `export const all = [AppError, v, z, Hono];`,
      ].join("\n"),
      "api/src/services/files.ts": `import { s } from "./sandboxes/sync";\nexport const f = s;\n`,
      "api/src/services/context.ts": `import type { s } from "../sandbox/index";\nexport type C = typeof s;\n`,
    });
    const why = (i: number) => NARROW[i]!.why;
    expect(broken.sort()).toEqual(
      [
        `api/src/agent/loop.ts → ../lib/validate: ${why(0)}`,
        `api/src/agent/loop.ts → hono: ${why(1)}`,
        `api/src/services/context.ts → ../sandbox/index: ${why(2)}`,
        `api/src/services/files.ts → ./sandboxes/sync: ${why(2)}`,
      ].sort(),
    );
  });

  test("imports are read with their type-only marks", () => {
    const source = [
      `import type { A } from "../db/a";`,
      `import { type B, type C } from "./b";`,
      `import { d, type E } from "./d";`,
      `export { f } from "@shared/f";`,
      `import "./side-effect";`,
      `const lazy = () => import("./lazy");`,
      `type G = import("./g").G;`,
      `// import { h } from "./commented";`,
    ].join("\n");
    expect(importsOf(source)).toEqual([
      { specifier: "../db/a", typeOnly: true },
      { specifier: "./b", typeOnly: true },
      { specifier: "./d", typeOnly: false },
      { specifier: "@shared/f", typeOnly: false },
      { specifier: "./side-effect", typeOnly: false },
      { specifier: "./lazy", typeOnly: false },
      { specifier: "./g", typeOnly: true },
    ]);
  });

  test("files are placed in their layer by folder", () => {
    expect(layerOf("api/src/services/sandboxes/sync.ts")).toBe("api:services");
    expect(layerOf("api/src/start-parts.ts")).toBe("api:root");
    expect(layerOf("web/src/app.tsx")).toBe("web");
    expect(layerOf("shared/src/schemas/file.ts")).toBe("shared");
    expect(layerOf("bench/support/wrk.ts")).toBeNull();
  });
});
