/**
 * How much JavaScript each route of the SPA loads, gzipped, against the 150 KB budget for `/` (issue 3).
 * Builds the web app (or, with --no-build, reads the existing web/dist), then follows Vite's manifest from
 * index.html: the entry chunk and its static imports are loaded on every route; a route adds its lazy page
 * modules (app.tsx's `lazy(() => import(...))`) and their static imports. Chunks a route can still fetch later
 * (Monaco behind the editor, say) are listed as "on demand". Exits 1 when `/` is over budget.
 *
 * @example
 * bun bench/bundle-size.ts            # build, then report
 * bun bench/bundle-size.ts --no-build # report on the current web/dist
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const DIST = join(ROOT, "web/dist");
const MANIFEST = join(DIST, ".vite/manifest.json");
const BUDGET_KB = 150;

type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
type Manifest = Record<string, Chunk>;

const LAYOUT = "src/features/shell/signed-in-layout.tsx";

/** Each route and the lazy modules (manifest keys) rendering it loads, as wired in web/src/app.tsx. */
function routes(): Array<{ path: string; lazy: string[] }> {
  const view = (name: string) => ({ path: `/project/{id}/${name}`, lazy: [LAYOUT, `src/pages/${name}-page.tsx`] });
  return [
    { path: "/", lazy: [] },
    { path: "/login", lazy: ["src/pages/login-page.tsx"] },
    { path: "/projects", lazy: [LAYOUT, "src/pages/projects-page.tsx"] },
    ...["chat", "files", "preview", "terminal"].map(view),
    { path: "(404)", lazy: [] },
  ];
}

if (!process.argv.includes("--no-build")) {
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) {
    console.error(build.stdout.toString(), build.stderr.toString());
    process.exit(1);
  }
}
if (!existsSync(MANIFEST)) {
  console.error(`No ${MANIFEST}: build the web app first (bun run build; web/vite.config.ts sets build.manifest).`);
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest;
const ROUTES = routes();
// What app.tsx lazy-loads is route-level: it is counted in the routes that render it, not as "on demand".
const routeModules = new Set([...ROUTES.flatMap((r) => r.lazy), ...(manifest["index.html"]?.dynamicImports ?? [])]);
for (const key of routeModules) {
  if (!manifest[key]) throw new Error(`${key} is not a chunk in the manifest: has app.tsx's lazy route changed?`);
}

/** The chunks loaded with these keys: each one and, transitively, its static imports. */
function staticClosure(keys: Iterable<string>, into = new Set<string>()): Set<string> {
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop()!;
    if (into.has(key)) continue;
    into.add(key);
    stack.push(...(manifest[key]?.imports ?? []));
  }
  return into;
}

/** Dynamic imports reachable from these chunks that no route loads up front (what loads on user action). */
function onDemand(loaded: Set<string>): Set<string> {
  const extra = new Set<string>();
  const queue = [...loaded];
  while (queue.length) {
    const key = queue.pop()!;
    for (const next of manifest[key]?.dynamicImports ?? []) {
      if (routeModules.has(next)) continue;
      for (const k of staticClosure([next])) {
        if (loaded.has(k) || extra.has(k)) continue;
        extra.add(k);
        queue.push(k);
      }
    }
  }
  return extra;
}

const gzipCache = new Map<string, { raw: number; gzip: number }>();
function sizeOf(file: string): { raw: number; gzip: number } {
  let size = gzipCache.get(file);
  if (!size) {
    const bytes = readFileSync(join(DIST, file));
    size = { raw: bytes.length, gzip: Bun.gzipSync(bytes, { level: 9 }).length };
    gzipCache.set(file, size);
  }
  return size;
}

function total(keys: Iterable<string>): { raw: number; gzip: number; files: string[] } {
  const files = [...new Set([...keys].map((k) => manifest[k]!.file))].filter((f) => f.endsWith(".js"));
  const sum = files.reduce((acc, f) => ({ raw: acc.raw + sizeOf(f).raw, gzip: acc.gzip + sizeOf(f).gzip }), { raw: 0, gzip: 0 });
  return { ...sum, files };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);
const entry = "index.html";
if (!manifest[entry]) throw new Error("index.html is not in the manifest");

console.log(`JavaScript per route, gzip -9 (budget for /: ${BUDGET_KB} KB)\n`);
console.log(`${"route".padEnd(26)}${"raw KB".padStart(9)}${"gzip KB".padStart(9)}   on demand (gzip KB)`);
let landingGzip = 0;
for (const route of ROUTES) {
  const loaded = staticClosure([entry, ...route.lazy]);
  const now = total(loaded);
  const later = total(onDemand(loaded));
  if (route.path === "/") landingGzip = now.gzip;
  const lazyNote = later.files.length ? `${kb(later.gzip).trim()} (${later.files.length} chunks)` : "-";
  console.log(`${route.path.padEnd(26)}${kb(now.raw)}  ${kb(now.gzip)}   ${lazyNote}`);
}

const landing = total(staticClosure([entry]));
console.log(`\nLoaded by /:`);
for (const file of landing.files.sort((a, b) => sizeOf(b).gzip - sizeOf(a).gzip)) {
  console.log(`  ${file.padEnd(44)}${kb(sizeOf(file).gzip)} KB`);
}
const css = manifest[entry]!.css ?? [];
for (const file of css) console.log(`  ${file.padEnd(44)}${kb(Bun.gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length)} KB (CSS, not counted)`);

const verdict = landingGzip <= BUDGET_KB * 1024 ? "within" : "OVER";
console.log(`\n/ loads ${(landingGzip / 1024).toFixed(1)} KB of JavaScript gzipped: ${verdict} the ${BUDGET_KB} KB budget.`);
if (verdict === "OVER") process.exit(1);
