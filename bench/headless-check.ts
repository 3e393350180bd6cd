/**
 * The headless check's added time: what running an app's page in the server's headless Chromium
 * (services/chat-runs/page-browser.ts) adds to the agent's check when no preview is open, on a small page,
 * with the crawl-only check (page-check.ts: fetch the HTML and every module, no browser) as the baseline in the
 * same run. Two pages: a small React app served by a real Vite dev server (the repository's own vite, react and
 * @vitejs/plugin-react, on loopback), and a plain two-module page served by Bun. For each: the crawl (median),
 * the first headless check (cold: Chromium launched), then warm checks (browser already up; median and max),
 * each with the old path (context and page made as the check starts) and with the spare context made after the
 * check before (page-browser.ts), and their ratio. Goal: warm added time < 2 s.
 *
 *   bun bench/headless-check.ts [--rounds 7] [--pairs 2]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { silentLogger } from "../api/src/lib/logger";
import { browserPath, createPageBrowser } from "../api/src/services/chat-runs/page-browser";
import { crawlPage } from "../api/src/services/chat-runs/page-check";
import { upperMedian as median } from "./support/stats";

const { values: opts } = parseArgs({ options: { rounds: { type: "string", default: "7" }, pairs: { type: "string", default: "2" } } });
const ROUNDS = Number(opts.rounds);
const PAIRS = Number(opts.pairs);

if (!browserPath("auto")) {
  console.log("headless-check: no Chromium found (CHECK_BROWSER_PATH auto); nothing measured");
  process.exit(0);
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Between two checks of a project there is a model turn at least; the spare is made in that gap. */
const GAP_MS = 500;

/** Headless checks of `origin` in a browser of its own: the first launches Chromium (cold), the rest are warm. */
async function headless(name: string, origin: string, spare: boolean) {
  const browser = createPageBrowser({ setting: "auto", logger: silentLogger, spare });
  const runs: number[] = [];
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      const started = performance.now();
      const problems = await browser.run("bench", `${origin}/`);
      runs.push(performance.now() - started);
      if (problems === null || problems.length) throw new Error(`${name}: the headless check answered ${JSON.stringify(problems)}`);
      await Bun.sleep(GAP_MS);
    }
  } finally {
    await browser.close();
  }
  const [cold, ...warm] = runs as [number, ...number[]];
  return { cold, warm: median(warm), max: Math.max(...warm) };
}

async function measure(name: string, origin: string) {
  const crawl: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const problems = await crawlPage((path) => fetch(`${origin}${path}`));
    crawl.push(performance.now() - started);
    if (problems.length) throw new Error(`${name}: the crawl found problems: ${JSON.stringify(problems)}`);
  }
  // The old path (a context and page made when the check starts) and the new (a spare made after the check
  // before), interleaved in pairs so load that changes during the run weighs on both alike.
  const old: Awaited<ReturnType<typeof headless>>[] = [];
  const spare: Awaited<ReturnType<typeof headless>>[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    old.push(await headless(name, origin, false));
    spare.push(await headless(name, origin, true));
  }
  const of = (rs: typeof old, k: "cold" | "warm" | "max") => median(rs.map((r) => r[k]));
  const line = (label: string, rs: typeof old) =>
    `${label}: cold ${ms(of(rs, "cold"))} (Chromium launched), warm median ${ms(of(rs, "warm"))}, max ${ms(Math.max(...rs.map((r) => r.max)))}`;
  const ratio = of(spare, "warm") / of(old, "warm");
  console.log(
    `${name}: crawl-only check (baseline) median ${ms(median(crawl))}; headless check added (${ROUNDS} warm rounds x ${PAIRS}, ${GAP_MS} ms apart):\n` +
      `  ${line("old path (context made per check)", old)}\n` +
      `  ${line("spare context made ahead        ", spare)}\n` +
      `  warm spare / old = ${ratio.toFixed(2)} (${ms(of(old, "warm") - of(spare, "warm"))} saved); crawl + headless warm ${ms(median(crawl) + of(spare, "warm"))}`,
  );
  return of(spare, "warm");
}

/** A small React app (a list, a counter) under the repository, so Vite resolves its own react and plugin. */
async function viteApp() {
  const dir = mkdtempSync(join(import.meta.dir, "..", ".bench-headless-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "index.html"), '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n');
  writeFileSync(
    join(dir, "src/main.tsx"),
    'import { StrictMode } from "react";\nimport { createRoot } from "react-dom/client";\nimport App from "./App";\n\ncreateRoot(document.getElementById("root")!).render(<StrictMode><App /></StrictMode>);\n',
  );
  writeFileSync(
    join(dir, "src/App.tsx"),
    'import { useState } from "react";\n\nconst plants = ["Fern", "Cactus", "Ivy"];\n\nexport default function App() {\n  const [count, setCount] = useState(0);\n  return (\n    <main>\n      <h1>Plants</h1>\n      <ul>{plants.map((p) => <li key={p}>{p}</li>)}</ul>\n      <button type="button" onClick={() => setCount(count + 1)}>Watered {count} times</button>\n    </main>\n  );\n}\n',
  );
  const { createServer } = await import("vite");
  const react = (await import("@vitejs/plugin-react")).default;
  const server = await createServer({
    root: dir,
    configFile: false,
    logLevel: "silent",
    plugins: [react()],
    server: { host: "127.0.0.1", port: 0, strictPort: false },
  });
  await server.listen();
  const address = server.httpServer!.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  // Warm, as a project the check runs on is: dependencies pre-bundled, modules compiled once.
  const browser = createPageBrowser({ setting: "auto", logger: silentLogger });
  await browser.run("warm-up", `${origin}/`);
  await browser.close();
  return {
    origin,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const plain = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    const js = (body: string) => new Response(body, { headers: { "content-type": "text/javascript" } });
    if (path === "/")
      return new Response('<!doctype html><div id="root"></div><script type="module" src="/main.js"></script>', { headers: { "content-type": "text/html" } });
    if (path === "/main.js") return js('import { render } from "./render.js";\nrender(document.getElementById("root"));\n');
    if (path === "/render.js") return js('export function render(root) {\n  root.textContent = ["Fern", "Cactus", "Ivy"].join(", ");\n}\n');
    return new Response("Not found", { status: 404 });
  },
});

console.log(`headless-check: Chromium at ${browserPath("auto")}; load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
const vite = await viteApp();
try {
  const warmVite = await measure("React on Vite", vite.origin);
  await measure("plain page", `http://127.0.0.1:${plain.port}`);
  console.log(`goal: warm added time < 2 s on the React page: ${warmVite < 2_000 ? "met" : "NOT met"} (${ms(warmVite)})`);
} finally {
  await vite.close();
  plain.stop(true);
}
