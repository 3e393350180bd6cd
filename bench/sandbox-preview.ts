/**
 * Sandboxes, previews and live file events, in one run (issue 4's Benchmark):
 *   (a) local sandbox create + first command (median, p95; goal < 50 ms, against E2B's published ~150 ms),
 *   (b) POST /api/sandbox/{id}/template {template: "react"} to the first HTTP 200 from its preview through the
 *       API's preview proxy: cold (a fresh data folder: plain `npm install`, the cache filling alongside) and
 *       warm (a copy from the template dependency cache; goal < 1.5 s),
 *   (c) file-change latency: POST /api/files/{projectId} to the `file.created` event at a WebSocket client
 *       (p50, p99 over WRITES writes; goal p99 < 100 ms, against the Files view's 5 s poll).
 * The real server pieces (startParts + serveHttp) run in this process on a temp DATA_DIR with embedded PGlite;
 * sign-in is emulator mode with minted tokens (FIREBASE_AUTH_EMULATOR_HOST points at an unused port, so no
 * emulator runs). Needs root, the local sandbox's packages and the npm registry.
 *
 *   bun bench/sandbox-preview.ts [--start-runs 20] [--warm-runs 5] [--writes 100]
 */
import { parseArgs } from "node:util";
import { loadTemplate } from "../api/src/services/sandboxes/templates.ts";
import { startBenchApp, untilPreviewAnswers } from "./support/bench-app.ts";
import { E2B_PUBLISHED_START_MS, measureSandboxStart, reportSandboxStart, requireLocalSandboxes } from "./support/local-sandboxes.ts";
import { subscribeToProject } from "./support/project-socket.ts";
import { loadLine, ms, nearestRank as pick, verdict } from "./support/stats.ts";

const { values: opts } = parseArgs({
  options: {
    "start-runs": { type: "string", default: "20" },
    "warm-runs": { type: "string", default: "5" },
    writes: { type: "string", default: "100" },
  },
});
const START_RUNS = Number(opts["start-runs"]);
const WARM_RUNS = Number(opts["warm-runs"]);
const WRITES = Number(opts.writes);
const TEMPLATE_GOAL_MS = 1500;
const EVENT_GOAL_MS = 100;
const POLL_MS = 5000;

await requireLocalSandboxes();

console.log(`load average before: ${loadLine()}\n`);

// (a) ------------------------------------------------------------------------------------------------------
console.log("(a) local sandbox create + first command (`echo ok`)");
reportSandboxStart("  default (a started spare is handed out)", await measureSandboxStart(1, START_RUNS));
reportSandboxStart("  cold (spares: 0)", await measureSandboxStart(0, START_RUNS));
console.log(`  reference (published by E2B, not measured here): E2B sandbox start ~${E2B_PUBLISHED_START_MS} ms\n`);

// The real server ------------------------------------------------------------------------------------------
const app = await startBenchApp("bench-preview-", { SANDBOX_IDLE_MINUTES: "30" });
const { api, base, parts } = app;

/** Applies the react template to a new project; ms from the request to the first 200 of GET / on its preview. */
async function templateToPreview(label: string): Promise<{ total: number; apply: number }> {
  const projectId = await app.project(label);
  const started = performance.now();
  const applied = await api<{ url: string }>("POST", `/api/sandbox/${projectId}/template`, { template: "react" });
  const apply = performance.now() - started;
  const html = await untilPreviewAnswers(base, new URL(applied.url).host, { timeoutMs: 120_000, pollMs: 10 });
  const total = performance.now() - started;
  if (!html.includes('<div id="root"></div>')) throw new Error(`the preview answered 200 with something else: ${html.slice(0, 200)}`);
  return { total, apply };
}

try {
  // (b) ----------------------------------------------------------------------------------------------------
  console.log("(b) apply the react template → first HTTP 200 from its preview (through the API's preview proxy)");
  const cold = await templateToPreview("cold");
  console.log(
    `  cold cache (plain npm install in the project's sandbox; the cache fills alongside): ${ms(cold.total)} (apply answered after ${ms(cold.apply)})`,
  );
  const cache = parts.deps.sandboxes.templateCache;
  if (!cache) throw new Error("the local provider has no template cache");
  const react = await loadTemplate("react");
  const filling = performance.now();
  await (cache.pending(react) ?? cache.populate(react));
  console.log(`  cache ready ${ms(performance.now() - filling)} after the cold apply answered (populations so far: ${cache.populations})`);
  await templateToPreview("warm-up"); // the first Vite start after the fill reads a cold page cache
  const warm: { total: number; apply: number }[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    warm.push(await templateToPreview(`warm-${i}`));
    await Bun.sleep(200);
  }
  const totals = warm.map((w) => w.total).sort((a, b) => a - b);
  const applies = warm.map((w) => w.apply).sort((a, b) => a - b);
  console.log(
    `  warm cache (copy from the template cache), ${WARM_RUNS} runs after 1 warm-up: median ${ms(pick(totals, 0.5))}   p95 ${ms(pick(totals, 0.95))}   ` +
      `min ${ms(totals[0]!)}   max ${ms(totals.at(-1)!)}   goal < ${TEMPLATE_GOAL_MS} ms: ${verdict(pick(totals, 0.5) < TEMPLATE_GOAL_MS)}`,
  );
  console.log(
    `    of which POST .../template answered (sandbox, files, copy, Vite started and listening): median ${ms(pick(applies, 0.5))}; the rest is the first page`,
  );
  console.log(`  cold / warm: ${(cold.total / pick(totals, 0.5)).toFixed(1)}x\n`);

  // (c) ----------------------------------------------------------------------------------------------------
  console.log(`(c) POST /api/files/{projectId} → 'file.created' at a WebSocket client (${WRITES} writes, one at a time)`);
  const projectId = await app.project("events");
  const waiting = new Map<string, (at: number) => void>();
  const ws = await subscribeToProject(`ws://127.0.0.1:${app.port}/api/ws`, app.token, projectId, (message, at) => {
    if (message.type === "file.created") waiting.get(message.file.path)?.(at);
  });
  const writeOnce = async (filePath: string) => {
    const arrived = new Promise<number>((resolve) => waiting.set(filePath, resolve));
    const started = performance.now();
    await api("POST", `/api/files/${projectId}`, { path: filePath, content: `export const n = ${JSON.stringify(filePath)};\n` });
    const at = await Promise.race([arrived, Bun.sleep(10_000).then(() => Number.NaN)]);
    waiting.delete(filePath);
    if (Number.isNaN(at)) throw new Error(`no file.created for ${filePath} within 10 s`);
    return at - started;
  };
  for (let i = 0; i < 10; i++) await writeOnce(`warmup/w${i}.ts`);
  const latencies: number[] = [];
  for (let i = 0; i < WRITES; i++) latencies.push(await writeOnce(`src/f${i}.ts`));
  ws.close();
  latencies.sort((a, b) => a - b);
  console.log(
    `  p50 ${ms(pick(latencies, 0.5))}   p99 ${ms(pick(latencies, 0.99))}   max ${ms(latencies.at(-1)!)}   ` +
      `goal p99 < ${EVENT_GOAL_MS} ms: ${verdict(pick(latencies, 0.99) < EVENT_GOAL_MS)}   (the fallback poll: every ${POLL_MS / 1000} s, ~${POLL_MS / 2} ms on average)`,
  );
} finally {
  await app.close();
}
