/**
 * The headless check's added time: what running an app's page in the server's headless Chromium
 * (services/chat-runs/page-browser.ts) adds to the agent's check when no preview is open, on a small page,
 * with the crawl-only check (page-check.ts: fetch the HTML and every module, no browser) as the baseline in the
 * same run. Two pages: a small React app served by a real Vite dev server (the repository's own vite, react and
 * @vitejs/plugin-react, on loopback), and a plain two-module page served by Bun. For each: the crawl (median),
 * the first headless check (cold: Chromium launched), then warm checks (browser already up; median and max).
 * Goal: warm added time < 2 s.
 *
 *   bun bench/headless-check.ts [--rounds 7]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { silentLogger } from "../api/src/lib/logger";
import { browserPath, createPageBrowser } from "../api/src/services/chat-runs/page-browser";
import { crawlPage } from "../api/src/services/chat-runs/page-check";
import { upperMedian as median } from "./support/stats";

const { values: opts } = parseArgs({ options: { rounds: { type: "string", default: "7" } } });
const ROUNDS = Number(opts.rounds);

if (!browserPath("auto")) {
  console.log("headless-check: no Chromium found (CHECK_BROWSER_PATH auto); nothing measured");
  process.exit(0);
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

async function measure(name: string, origin: string) {
  const crawl: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const problems = await crawlPage((path) => fetch(`${origin}${path}`));
    crawl.push(performance.now() - started);
    if (problems.length) throw new Error(`${name}: the crawl found problems: ${JSON.stringify(problems)}`);
  }
  // A browser of its own per page, so the first check of each is a cold start.
  const browser = createPageBrowser({ setting: "auto", logger: silentLogger });
  const runs: number[] = [];
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      const started = performance.now();
      const problems = await browser.run("bench", `${origin}/`);
      runs.push(performance.now() - started);
      if (problems === null || problems.length) throw new Error(`${name}: the headless check answered ${JSON.stringify(problems)}`);
    }
  } finally {
    await browser.close();
  }
  const [cold, ...warm] = runs as [number, ...number[]];
  console.log(
    `${name}: crawl-only check (baseline) median ${ms(median(crawl))}; headless check added: cold ${ms(cold)} (Chromium launched), ` +
      `warm median ${ms(median(warm))}, max ${ms(Math.max(...warm))} (${ROUNDS} rounds); crawl + headless warm ${ms(median(crawl) + median(warm))}`,
  );
  return median(warm);
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
