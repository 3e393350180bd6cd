/**
 * Every environment variable the server reads is named in README.md. The list comes from the code: the
 * variables loadConfig reads (recorded as it parses an environment that notes each lookup) and every
 * `process.env.X` / `Bun.env.X` in api/src, so a new variable without a README line fails here.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { loadConfig } from "./index";

const ROOT = join(import.meta.dir, "../../../..");
const API_SRC = join(ROOT, "api/src");
/** The system's own variables, read to run programs, not settings of this app. */
const SYSTEM = new Set(["PATH", "HOME", "TMPDIR", "NODE_ENV"]);

/** The variables loadConfig looks up, whatever the area file or the name of its schema. */
function configVariables(): string[] {
  const read = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_, key) {
      if (typeof key === "string") read.add(key);
      return undefined;
    },
  });
  try {
    loadConfig(env);
  } catch {
    // Only the lookups matter; an unset environment is a valid one, but a later check may still object.
  }
  return [...read].filter((key) => /^[A-Z][A-Z0-9_]*$/.test(key));
}

/** `process.env.X`, `process.env["X"]`, `Bun.env.X` and `Bun.env["X"]` in one file's code (not its comments). */
function envReads(code: string, fileName = "file.ts"): string[] {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const isEnv = (node: ts.Expression) => ["process.env", "Bun.env"].includes(node.getText(file));
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && isEnv(node.expression)) found.push(node.name.text);
    if (ts.isElementAccessExpression(node) && isEnv(node.expression) && ts.isStringLiteralLike(node.argumentExpression)) {
      found.push(node.argumentExpression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function productionSources(dir = API_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : productionSources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The variables README.md does not name in backticks, as `NAME` or `NAME=value`. */
function missingFromReadme(readme: string, variables: string[]): string[] {
  return variables.filter((name) => !new RegExp(`\`${name}(\`|=)`).test(readme));
}

describe("README environment variables", () => {
  test("the detectors find variables in the config and in code, not in comments", () => {
    const config = configVariables();
    expect(config).toEqual(expect.arrayContaining(["PORT", "DATABASE_URL", "SANDBOX_PROVIDER"]));
    expect(config.length).toBeGreaterThan(40);
    expect(envReads('const a = process.env.NEW_ONE; const b = Bun.env["OTHER"]; // process.env.COMMENTED')).toEqual(["NEW_ONE", "OTHER"]);
    expect(missingFromReadme("| `PORT` | 3000 |\nPORTS, `HOSTS=a`", ["PORT", "PORTS", "HOSTS", "HOST"])).toEqual(["PORTS", "HOST"]);
  });

  test("every variable the server reads is named in README.md", () => {
    const fromCode = productionSources().flatMap((file) => envReads(readFileSync(file, "utf8"), file).map((name) => ({ name, file: relative(ROOT, file) })));
    const variables = [...new Set([...configVariables(), ...fromCode.map((r) => r.name)])].filter((name) => !SYSTEM.has(name)).sort();
    const missing = missingFromReadme(readFileSync(join(ROOT, "README.md"), "utf8"), variables);
    expect(missing.map((name) => `${name} (${fromCode.find((r) => r.name === name)?.file ?? "api/src/lib/config"})`)).toEqual([]);
  }, 60_000); // parses every source file of api/src
});
