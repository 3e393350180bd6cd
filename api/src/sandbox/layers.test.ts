/**
 * The sandbox providers sit at the bottom: they may use lib/ and each other, never the database, services,
 * events, realtime, routes or the agent. And the file service reaches sandboxes only through the hook it
 * defines (ServiceContext.sandboxSync), never by importing the sandbox service, which writes through it.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";

const SRC = path.join(import.meta.dir, "..");
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every relative import of `file`, resolved to a path under api/src (e.g. "db/files"). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    if (spec.startsWith(".")) found.push(path.relative(SRC, path.resolve(path.dirname(file), spec)));
  }
  return found;
}

const sourcesUnder = (dir: string) =>
  fs
    .readdirSync(path.join(SRC, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|js)$/.test(f) && !/\.test\.ts$/.test(f))
    .map((f) => path.join(SRC, dir, f));

describe("layers", () => {
  test("the import scan sees imports (so an empty result below means something)", () => {
    expect(importsOf(path.join(SRC, "sandbox/index.ts"))).toContain("sandbox/e2b");
  });

  test("sandbox providers import nothing above them", () => {
    const above = /^(db|services|events|realtime|routes|agent|middleware|auth|storage)(\/|$)|^(app|app-env|server)(\.ts)?$/;
    const offending = sourcesUnder("sandbox").flatMap((file) =>
      importsOf(file)
        .filter((target) => above.test(target))
        .map((target) => `${path.relative(SRC, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  test("the file service does not import the sandbox service", () => {
    const targets = [...importsOf(path.join(SRC, "services/files.ts")), ...importsOf(path.join(SRC, "services/context.ts"))];
    expect(targets.filter((t) => t.startsWith("services/sandboxes") || t.startsWith("sandbox"))).toEqual([]);
  });
});
