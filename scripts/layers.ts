/**
 * The import rules of ARCHITECTURE.md, checked over the import graph as the TypeScript compiler reads and
 * resolves it (tsconfig paths such as `@shared/*` included): which folder may import which, which file wraps
 * each vendor SDK, and the narrower rules of the agent engine and the file service. `bun scripts/layers.ts`
 * prints every broken rule and exits 1; `scripts/layers.test.ts` runs it in CI and proves each rule bites.
 *
 * @example
 * const broken = checkLayers(process.cwd()); // [] when the house is in order
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** A place in the tree, named by its folder: `api:routes`, `api:agent`, `web`, `shared`, … */
export type Layer = string;
export type Import = { from: string; to: string; specifier: string; typeOnly: boolean };
export type Violation = Import & { fromLayer: Layer; toLayer: Layer; rule: string };

/**
 * Who may import whom. A layer not listed as a key may import anything (the composition root and test
 * helpers); `types` lists layers whose *types* may be imported but never their code.
 */
export const RULES: Record<Layer, { may: Layer[]; types?: Layer[]; why: string }> = {
  "api:routes": {
    may: ["api:routes", "api:services", "api:lib", "shared"],
    types: ["api:root", "api:auth", "api:middleware"],
    why: "routes parse input and call services",
  },
  "api:middleware": {
    may: ["api:middleware", "api:services", "api:lib", "shared"],
    types: ["api:root", "api:auth"],
    why: "middleware adapts HTTP to services",
  },
  "api:services": {
    may: ["api:services", "api:db", "api:storage", "api:sandbox", "api:events", "api:lib", "shared"],
    types: ["api:agent", "api:auth"],
    why: "services hold the rules and implement the agent's interfaces",
  },
  // lib: its error class and logger type (NARROW below holds the agent to exactly those).
  "api:agent": { may: ["api:agent", "shared", "api:lib"], why: "the agent is an engine that talks only through its own interfaces" },
  "api:sandbox": { may: ["api:sandbox", "api:lib", "shared"], why: "sandbox providers know nothing above them" },
  "api:db": { may: ["api:db", "api:lib", "shared"], why: "queries know nothing of the services using them" },
  "api:storage": { may: ["api:storage", "api:lib", "shared"], why: "object stores know nothing above them" },
  "api:events": { may: ["api:events", "api:lib", "shared"], types: ["api:db"], why: "event buses carry events, nothing more" },
  // sandbox: the preview proxy forwards to the provider's sandboxes.
  "api:realtime": {
    may: ["api:realtime", "api:services", "api:sandbox", "api:events", "api:lib", "shared"],
    types: ["api:auth", "api:db", "api:storage"],
    why: "realtime delivers what services decide",
  },
  // sites: published sites served from the store; it reads deployments through the publish service.
  "api:sites": {
    may: ["api:sites", "api:services", "api:events", "api:lib", "shared"],
    types: ["api:db", "api:storage"],
    why: "the site server delivers what the publish service stored",
  },
  "api:auth": { may: ["api:auth", "api:lib", "shared"], why: "token checks stand alone" },
  "api:lib": { may: ["api:lib", "shared"], why: "lib is the floor" },
  shared: { may: ["shared"], why: "shared is imported by api and web, never the reverse" },
  web: { may: ["web", "shared"], types: ["api:root"], why: "the web knows the API only by its types" },
};

/** Each vendor SDK behind one file of production code (tests and benches may use them directly). */
export const VENDORS: Record<string, string> = {
  jose: "api/src/auth/jwt.ts",
  openai: "api/src/agent/model-client.ts",
  e2b: "api/src/sandbox/e2b.ts",
  "@aws-sdk/client-s3": "api/src/storage/s3.ts",
  postgres: "api/src/db/client.ts",
  "isomorphic-git": "api/src/services/git/repo.ts",
  "@secretlint": "api/src/services/publish/scan-client-files.ts",
  "@electric-sql/pglite": "api/src/db/embedded.ts",
  "playwright-core": "api/src/services/chat-runs/page-browser.ts",
  firebase: "web/src/features/auth/firebase.ts",
  "@firebase": "web/src/features/auth/firebase.ts",
};

/**
 * Narrower rules inside a layer the table allows. The agent engine reaches lib/ for its error class,
 * logger, text helpers and the project access type alone and no package but zod and openai (the latter in model-client.ts, by VENDORS); the file
 * service reaches sandboxes only through the hook it defines (ServiceContext.sandboxSync), never by importing
 * the sandbox service, which writes through it.
 */
export const NARROW: { from: RegExp; to?: RegExp; packages?: string[]; allow?: string[]; why: string }[] = [
  {
    from: /^api\/src\/agent\//,
    to: /^api\/src\/lib\//,
    // Besides the error class and logger, two pure text helpers (no I/O) that services use too.
    // And the checked project access value (a type) its runs are started with.
    allow: [
      "api/src/lib/errors.ts",
      "api/src/lib/logger.ts",
      "api/src/lib/secret-redactor.ts",
      "api/src/lib/sql-statements.ts",
      "api/src/lib/project-access.ts",
    ],
    why: "the agent engine takes only lib's error class, logger, pure text helpers and the project access type",
  },
  { from: /^api\/src\/agent\//, packages: ["zod", "openai"], why: "the agent engine uses no package but zod and openai" },
  {
    from: /^api\/src\/services\/(files|context)\.ts$/,
    to: /^api\/src\/(services\/sandboxes|sandbox)\//,
    allow: [],
    why: "the file service reaches sandboxes only through ServiceContext.sandboxSync",
  },
];

const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const isTest = (path: string) => /\.(test|e2e\.test|security\.test)\.(ts|tsx)$/.test(path) || path.includes("/src/test/");

/** The layer a repository-relative path belongs to, or null for files outside the checked tree. */
export function layerOf(path: string): Layer | null {
  if (path.startsWith("shared/")) return "shared";
  if (path.startsWith("web/")) return "web";
  const api = /^api\/src\/([^/]+)(\/|$)/.exec(path);
  if (!api) return null;
  return api[2] === "/" ? `api:${api[1]}` : "api:root";
}

const kindOf = (file: string) => (file.endsWith(".tsx") ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);

/**
 * Every import, re-export, dynamic `import()` and `import("…")` type in one file, as the compiler parses it
 * (so comments and strings never count), with whether it brings in types alone: `import type`, `export type`,
 * `import { type A, type B }` and `import("…")` in a type position do.
 */
export function importsOf(source: string, fileName = "file.ts"): { specifier: string; typeOnly: boolean }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kindOf(fileName));
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const add = (node: ts.Node | undefined, typeOnly: boolean) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const allTypes = !!clause && !clause.name && !!named?.length && named.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause?.isTypeOnly || allTypes);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier, node.isTypeOnly || (!!named?.length && named.every((e) => e.isTypeOnly)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The compiler options of the repository's tsconfig.json: its `paths` decide what `@shared/…` means. */
function compilerOptions(root: string): ts.CompilerOptions {
  const path = join(root, "tsconfig.json");
  if (!existsSync(path)) return { moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true };
  const { config, error } = ts.readConfigFile(path, ts.sys.readFile);
  if (error) throw new Error(`${path}: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`);
  return ts.parseJsonConfigFileContent(config, ts.sys, root).options;
}

/**
 * Resolves a specifier as the compiler does, to a repository-relative path, or null for a package. A relative
 * specifier the compiler cannot resolve (a missing file, a non-TypeScript asset) still names a place in the
 * tree, so it is placed by its path.
 */
function resolver(root: string) {
  const options = compilerOptions(root);
  const cache = ts.createModuleResolutionCache(root, (f) => f, options);
  return (fromFile: string, specifier: string): string | null => {
    const from = join(root, fromFile);
    const resolved = ts.resolveModuleName(specifier, from, options, ts.sys, cache).resolvedModule;
    if (resolved && !resolved.isExternalLibraryImport) {
      const path = relative(root, resolved.resolvedFileName);
      if (!path.startsWith("..")) return path;
    }
    if (specifier.startsWith(".")) return relative(root, resolve(dirname(from), specifier));
    return null;
  };
}

/** The package a bare specifier names: `@scope/name` or `name`, without its subpath. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function walk(root: string, dir: string, out: string[]) {
  if (!existsSync(join(root, dir))) return;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, path, out);
    else if (SOURCE.test(entry.name)) out.push(path);
  }
}

/** Checks one import edge between two files of the tree against the layer table and the narrow rules. */
export function judge(edge: Import): Violation | null {
  const fromLayer = layerOf(edge.from);
  const toLayer = layerOf(edge.to);
  if (!fromLayer || !toLayer) return null;
  if (toLayer === "api:test" && !isTest(edge.from)) {
    return { ...edge, fromLayer, toLayer, rule: "production code never imports test helpers" };
  }
  if (isTest(edge.from)) return null; // tests may reach anything they check
  const to = edge.to.replace(/(\.tsx?)?$/, (ext) => ext || ".ts");
  for (const narrow of NARROW) {
    if (narrow.to && narrow.from.test(edge.from) && narrow.to.test(to) && !narrow.allow?.includes(to)) {
      return { ...edge, fromLayer, toLayer, rule: narrow.why };
    }
  }
  const rule = RULES[fromLayer];
  if (!rule) return null;
  if (rule.may.includes(toLayer)) return null;
  if (edge.typeOnly && rule.types?.includes(toLayer)) return null;
  const allowed = [...rule.may, ...(rule.types ?? []).map((t) => `${t} (types)`)].join(", ");
  return { ...edge, fromLayer, toLayer, rule: `${fromLayer} may import ${allowed}: ${rule.why}` };
}

/** A package imported by a production file that may not: a vendor SDK outside its wrapping file, or a package
 * outside a narrow rule's list. */
export function judgeVendor(from: string, specifier: string, typeOnly = false): Violation | null {
  if (isTest(from) || layerOf(from) === null) return null;
  const broken = (to: string, rule: string): Violation => ({ from, to, specifier, typeOnly, fromLayer: layerOf(from)!, toLayer: to, rule });
  const vendor = Object.keys(VENDORS).find((name) => specifier === name || specifier.startsWith(`${name}/`));
  if (vendor && VENDORS[vendor] !== from) {
    return broken(vendor, `${vendor} is used through ${VENDORS[vendor]} only, so a second provider or an upgrade touches one file`);
  }
  const pkg = packageOf(specifier);
  const narrow = NARROW.find((n) => n.packages && n.from.test(from) && !n.packages.includes(pkg));
  return narrow ? broken(pkg, narrow.why) : null;
}

/** Every broken rule in the repository at `root`. */
export function checkLayers(root: string): Violation[] {
  const files: string[] = [];
  for (const dir of ["api/src", "web/src", "shared/src"]) walk(root, dir, files);
  const resolveFrom = resolver(root);
  const violations: Violation[] = [];
  for (const from of files) {
    for (const { specifier, typeOnly } of importsOf(readFileSync(join(root, from), "utf8"), from)) {
      const to = resolveFrom(from, specifier);
      const broken = to ? judge({ from, to, specifier, typeOnly }) : judgeVendor(from, specifier, typeOnly);
      if (broken) violations.push(broken);
    }
  }
  return violations;
}

if (import.meta.main) {
  const broken = checkLayers(resolve(import.meta.dir, ".."));
  for (const v of broken) console.log(`${v.from} → ${v.specifier}${v.typeOnly ? " (type)" : ""}\n    ${v.rule}`);
  console.log(broken.length ? `${broken.length} imports break the layer rules` : "layer rules hold");
  process.exit(broken.length ? 1 : 0);
}
