/**
 * The web's boundaries, checked over every source file: only api/endpoints.ts knows the API's paths
 * (no other file spells an `/api/` URL or calls the untyped fetch helpers) and only components/ui/icons.tsx
 * draws icons (one factory, so every icon has the same size, stroke and accessibility defaults; the Google
 * logo, in its brand colours, is the one other drawing). Files are parsed with the TypeScript compiler, so comments
 * never count and strings are found however they are quoted. Who may import what (the Firebase SDK in
 * features/auth/firebase.ts alone, the API by its types alone) is checked by scripts/layers.ts.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const SRC = import.meta.dir;
const ENDPOINTS = "api/endpoints.ts";
/** The transport under the endpoints module: it takes paths, it never spells one. */
const TRANSPORT = new Set([ENDPOINTS, "api/client.ts", "api/sse.ts"]);
/** The files that may draw an `<svg>`: the icon factory and the Google logo. */
const SVG_ALLOWED = ["components/ui/icons.tsx", "features/auth/components/google-icon.tsx"];

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

function walk(code: string, visit: (node: ts.Node) => void): void {
  const file = ts.createSourceFile("x.tsx", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const go = (node: ts.Node) => {
    visit(node);
    ts.forEachChild(node, go);
  };
  go(file);
}

/** `"../api/client"` in an import names a module of the web, not a URL. */
function isModuleSpecifier(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    ts.isImportDeclaration(parent) ||
    ts.isExportDeclaration(parent) ||
    (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword) ||
    ts.isExternalModuleReference(parent) ||
    ts.isLiteralTypeNode(parent)
  );
}

/** What in this code builds an API URL by hand or fetches without a schema. */
export function apiPathFindings(code: string): string[] {
  const found: string[] = [];
  walk(code, (node) => {
    if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node)) && !isModuleSpecifier(node)) {
      if (/(^|[^a-z])\/api(\/|$)/i.test(node.text)) found.push(`string ${JSON.stringify(node.text)}`);
    }
    if (ts.isIdentifier(node) && (node.text === "apiFetch" || node.text === "apiFetchOrNullOn401" || node.text === "apiRequest")) {
      found.push(`identifier ${node.text}`);
    }
  });
  return found;
}

/** The `<svg>` elements this code draws (JSX or `createElement("svg")`). */
export function svgDrawings(code: string): string[] {
  const found: string[] = [];
  walk(code, (node) => {
    if ((ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) && node.tagName.getText() === "svg") found.push("<svg>");
    if (
      ts.isCallExpression(node) &&
      /(^|\.)createElement$/.test(node.expression.getText()) &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0]) &&
      node.arguments[0].text === "svg"
    ) {
      found.push('createElement("svg")');
    }
  });
  return found;
}

describe("the detectors", () => {
  test("find hand-built API URLs and untyped fetches, not comments", () => {
    expect(apiPathFindings('const a = "/api/projects";')).toEqual(['string "/api/projects"']);
    expect(apiPathFindings("const a = `/api/files/${id}`;")).toEqual(['string "/api/files/"']);
    expect(apiPathFindings("const a = `${base}/api/ws`;")).toEqual(['string "/api/ws"']);
    expect(apiPathFindings("apiFetch<Project>(path);")).toEqual(["identifier apiFetch"]);
    expect(apiPathFindings("// GET /api/projects\n/* POST /api/x */ const ok = 1;")).toEqual([]);
    expect(apiPathFindings('const other = "/apix/y"; const img = "/images/api.png";')).toEqual([]);
    expect(apiPathFindings('import { api } from "../api/endpoints"; const m = import("../../api/sse");')).toEqual([]);
  });

  test("find drawn <svg> elements, not comments, strings or icon components", () => {
    expect(svgDrawings('const a = <svg viewBox="0 0 24 24"><path d="M0 0" /></svg>;')).toEqual(["<svg>"]);
    expect(svgDrawings("const a = <svg />;")).toEqual(["<svg>"]);
    expect(svgDrawings('const a = React.createElement("svg", null);')).toEqual(['createElement("svg")']);
    expect(svgDrawings('// <svg>\nconst s = "<svg onload=x>"; const a = <PanelRightIcon className="size-4" />;')).toEqual([]);
  });
});

describe("the web's boundaries", () => {
  const files = sourceFiles();
  const read = (file: string) => readFileSync(join(SRC, file), "utf8");

  test("the walk sees the whole web source", () => {
    expect(files).toContain(ENDPOINTS);
    expect(files.length).toBeGreaterThan(100);
  });

  test("only api/endpoints.ts builds /api/ URLs; no file outside the transport fetches without a schema", () => {
    const offenders = files
      .filter((file) => file !== ENDPOINTS)
      .map((file) => ({
        file,
        // The transport may name its own helpers; it may not spell a path either.
        findings: apiPathFindings(read(file)).filter((f) => !(TRANSPORT.has(file) && f.startsWith("identifier"))),
      }))
      .filter((o) => o.findings.length > 0);
    expect(offenders).toEqual([]);
  });

  test("only the icon factory and the Google logo draw an <svg>", () => {
    const drawing = files.filter((file) => svgDrawings(read(file)).length > 0);
    expect(drawing).toEqual(expect.arrayContaining(SVG_ALLOWED));
    expect(drawing.filter((file) => !SVG_ALLOWED.includes(file))).toEqual([]);
  });
});
