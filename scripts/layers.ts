/**
 * The layer rules of ARCHITECTURE.md, checked over the import graph: which folder may import which.
 * `bun scripts/layers.ts` prints every broken rule and exits 1; `scripts/layers.test.ts` runs it in CI.
 *
 * @example
 * const broken = checkLayers(process.cwd()); // [] when the house is in order
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** A place in the tree, named by its folder: `api:routes`, `api:agent`, `web`, `shared`, … */
export type Layer = string;
export type Import = { from: string; to: string; specifier: string; typeOnly: boolean };
export type Violation = Import & { fromLayer: Layer; toLayer: Layer; rule: string };

/**
 * Who may import whom. A layer not listed as a key may import anything (the composition root and test
 * helpers); `types` lists layers whose *types* may be imported but never their code.
 */
export const RULES: Record<Layer, { may: Layer[]; types?: Layer[]; why: string }> = {
  "api:routes": { may: ["api:routes", "api:services", "api:lib", "shared"], types: ["api:root", "api:auth", "api:middleware"], why: "routes parse input and call services" },
  "api:middleware": { may: ["api:middleware", "api:services", "api:lib", "shared"], types: ["api:root", "api:auth"], why: "middleware adapts HTTP to services" },
  "api:services": {
    may: ["api:services", "api:db", "api:storage", "api:sandbox", "api:events", "api:lib", "shared"],
    types: ["api:agent", "api:auth"],
    why: "services hold the rules and implement the agent's interfaces",
  },
  // lib: its error class and logger type (agent/imports.test.ts narrows the agent to exactly those).
  "api:agent": { may: ["api:agent", "shared", "api:lib"], why: "the agent is an engine that talks only through its own interfaces" },
  "api:sandbox": { may: ["api:sandbox", "api:lib", "shared"], why: "sandbox providers know nothing above them" },
  "api:db": { may: ["api:db", "api:lib", "shared"], why: "queries know nothing of the services using them" },
  "api:storage": { may: ["api:storage", "api:lib", "shared"], why: "object stores know nothing above them" },
  "api:events": { may: ["api:events", "api:lib", "shared"], types: ["api:db"], why: "event buses carry events, nothing more" },
  // sandbox: the preview proxy forwards to the provider's sandboxes.
  "api:realtime": { may: ["api:realtime", "api:services", "api:sandbox", "api:events", "api:lib", "shared"], types: ["api:auth", "api:db", "api:storage"], why: "realtime delivers what services decide" },
  // sites: published sites served from the store; it reads deployments through the publish service.
  "api:sites": { may: ["api:sites", "api:services", "api:events", "api:lib", "shared"], types: ["api:db", "api:storage"], why: "the site server delivers what the publish service stored" },
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
  "@electric-sql/pglite": "api/src/db/embedded.ts",
  firebase: "web/src/features/auth/firebase.ts",
};

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

const IMPORT = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every import and re-export in one file, with whether it brings in types alone. */
export function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const clause = m[3] ?? "";
    // `import { type A, type B } from` is as type-only as `import type { A, B } from`.
    const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1]?.split(",").map((s) => s.trim()).filter(Boolean);
    const allTypes = !!names?.length && names.every((n) => n.startsWith("type "));
    found.push({ specifier: m[4]!, typeOnly: !!m[2] || allTypes });
  }
  for (const m of source.matchAll(DYNAMIC)) found.push({ specifier: m[1]!, typeOnly: false });
  return found;
}

/** Resolves a specifier to a repository-relative path, or null for packages. */
function resolveSpecifier(root: string, fromFile: string, specifier: string): string | null {
  if (specifier.startsWith("@shared/")) return `shared/src/${specifier.slice("@shared/".length)}`;
  if (!specifier.startsWith(".")) return null;
  return relative(root, resolve(dirname(join(root, fromFile)), specifier));
}

function walk(root: string, dir: string, out: string[]) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, path, out);
    else if (SOURCE.test(entry.name)) out.push(path);
  }
}

/** Checks one import edge against the rules. */
export function judge(edge: Import): Violation | null {
  const fromLayer = layerOf(edge.from);
  const toLayer = layerOf(edge.to);
  if (!fromLayer || !toLayer) return null;
  if (toLayer === "api:test" && !isTest(edge.from)) {
    return { ...edge, fromLayer, toLayer, rule: "production code never imports test helpers" };
  }
  if (isTest(edge.from)) return null; // tests may reach anything they check
  const rule = RULES[fromLayer];
  if (!rule) return null;
  if (rule.may.includes(toLayer)) return null;
  if (edge.typeOnly && rule.types?.includes(toLayer)) return null;
  const allowed = [...rule.may, ...(rule.types ?? []).map((t) => `${t} (types)`)].join(", ");
  return { ...edge, fromLayer, toLayer, rule: `${fromLayer} may import ${allowed}: ${rule.why}` };
}

/** A vendor package imported by a production file other than the one that wraps it. */
export function judgeVendor(from: string, specifier: string, typeOnly = false): Violation | null {
  if (isTest(from) || layerOf(from) === null) return null;
  const vendor = Object.keys(VENDORS).find((name) => specifier === name || specifier.startsWith(`${name}/`));
  if (!vendor || VENDORS[vendor] === from) return null;
  const rule = `${vendor} is used through ${VENDORS[vendor]} only, so a second provider or an upgrade touches one file`;
  return { from, to: vendor, specifier, typeOnly, fromLayer: layerOf(from)!, toLayer: vendor, rule };
}

/** Every broken rule in the repository at `root`. */
export function checkLayers(root: string): Violation[] {
  const files: string[] = [];
  for (const dir of ["api/src", "web/src", "shared/src"]) walk(root, dir, files);
  const violations: Violation[] = [];
  for (const from of files) {
    for (const { specifier, typeOnly } of importsOf(readFileSync(join(root, from), "utf8"))) {
      const to = resolveSpecifier(root, from, specifier);
      if (!to) {
        const vendor = judgeVendor(from, specifier, typeOnly);
        if (vendor) violations.push(vendor);
        continue;
      }
      const broken = judge({ from, to, specifier, typeOnly });
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
