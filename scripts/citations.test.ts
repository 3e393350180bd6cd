/**
 * Code comments explain themselves: they never send the reader to a document that is not in this repository
 * (the product brief and design notes live outside it), by file name or by section number.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const DIRS = ["api", "web/src", "shared", "scripts", "bench", "e2e", "security"];
const SOURCE = /\.(ts|tsx|js|cjs|mjs|sh|sql)$/;
/** A file name of an outside document, a section sign with a number (`§4`, `spec §2`), or "the spec" / "spec's". */
export const CITATION = /\b(?:SPEC|DESIGN|STYLE)\.md\b|§\s*\d|\bthe spec\b|\bspec['’]s\b/i;

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "templates") continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) sources(path, out);
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

describe("citations", () => {
  test("the pattern catches each form of citation, and ordinary text passes", () => {
    for (const cited of ["see DESIGN.md", "(spec §2)", "SPEC.md §7", "§ 4 says", "the spec's toast", "The spec: a 5 s poll"])
      expect(CITATION.test(cited)).toBe(true);
    for (const plain of ["README.md", "a section", "100 %", "inspect the specimen"]) expect(CITATION.test(plain)).toBe(false);
  });

  test("no source file cites a document outside the repository", () => {
    const files = DIRS.flatMap((dir) => sources(dir));
    expect(files.length).toBeGreaterThan(100);
    const cited = files.flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (CITATION.test(line) && !file.endsWith("citations.test.ts") ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(cited).toEqual([]);
  });
});
