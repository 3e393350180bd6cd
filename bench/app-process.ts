/**
 * The app process (issue 10's Benchmark), in one run through the real server pieces:
 *   (a) POST /api/sandbox/{id}/processes/app/restart of the vite template's app → the preview answering 200
 *       again through the API's preview proxy (median of RUNS, warm; goal < 1 s). Baseline in the same run:
 *       the same restart of an app that is a bare `python3 -m http.server` (supervision and port detection
 *       without Vite's own start).
 *   (b) a line written by a process in the sandbox → the `process.output` event at a WebSocket client (p50,
 *       p99 over LINES lines; goal p99 < 100 ms). The line carries the time it was written (same clock: one
 *       kernel). Baseline in the same run: POST /api/files → `file.created` at the same client (the same bus
 *       and socket, no sandbox).
 * Temp DATA_DIR, embedded PGlite, emulator-mode tokens (no emulator runs). Needs root, the local sandbox's
 * packages and the npm registry (the vite template's dependencies).
 *
 *   bun bench/app-process.ts [--runs 5] [--lines 500]
 */
import { parseArgs } from "node:util";
import { startBenchApp, untilPreviewAnswers } from "./support/bench-app.ts";
import { requireLocalSandboxes } from "./support/local-sandboxes.ts";
import { subscribeToProject } from "./support/project-socket.ts";
import { loadLine, ms, nearestRank as pick, sortedCopy as sorted, verdict } from "./support/stats.ts";

const { values: opts } = parseArgs({ options: { runs: { type: "string", default: "5" }, lines: { type: "string", default: "500" } } });
const RUNS = Number(opts.runs);
const LINES = Number(opts.lines);
const RESTART_GOAL_MS = 1000;
const LINE_GOAL_MS = 100;

await requireLocalSandboxes();

console.log(`load average before: ${loadLine()}\n`);

const app = await startBenchApp("bench-app-process-", { SANDBOX_IDLE_MINUTES: "30" });
const { api, base } = app;

/** ms from POST …/app/restart to the first 200 of GET / on the preview host. */
async function restartToPreview(projectId: string, host: string): Promise<number> {
  const started = performance.now();
  await api("POST", `/api/sandbox/${projectId}/processes/app/restart`);
  await untilPreviewAnswers(base, host, { timeoutMs: 60_000, pollMs: 5 });
  return performance.now() - started;
}

async function restarts(projectId: string, host: string): Promise<number[]> {
  await restartToPreview(projectId, host); // warm-up
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    out.push(await restartToPreview(projectId, host));
    await Bun.sleep(200);
  }
  return sorted(out);
}

try {
  // (a) ------------------------------------------------------------------------------------------------------
  console.log(`(a) POST …/processes/app/restart → preview 200 again (through the API's preview proxy), ${RUNS} runs after 1 warm-up`);
  const viteProject = await app.project("vite");
  const applied = await api<{ url: string }>("POST", `/api/sandbox/${viteProject}/template`, { template: "vite" });
  const vite = await restarts(viteProject, new URL(applied.url).host);
  const plainProject = await app.project("plain");
  await api("POST", `/api/sandbox/${plainProject}/processes`, { name: "app", command: "exec python3 -m http.server 5173 --bind 0.0.0.0" });
  let plainUrl: string | null = null;
  for (let i = 0; i < 200 && !plainUrl?.startsWith("http://5173-"); i++, await Bun.sleep(50)) {
    plainUrl = (await api<{ url: string | null }>("GET", `/api/sandbox/${plainProject}/url`)).url;
  }
  const plain = await restarts(plainProject, new URL(plainUrl!).host);
  console.log(
    `  vite template app: median ${ms(pick(vite, 0.5))}   min ${ms(vite[0]!)}   max ${ms(vite.at(-1)!)}   goal median < ${RESTART_GOAL_MS} ms: ${verdict(pick(vite, 0.5) < RESTART_GOAL_MS)}`,
  );
  console.log(`  baseline, python3 http.server app: median ${ms(pick(plain, 0.5))}   min ${ms(plain[0]!)}   max ${ms(plain.at(-1)!)}\n`);

  // (b) ------------------------------------------------------------------------------------------------------
  console.log(`(b) a line written in the sandbox → 'process.output' at a WebSocket client (${LINES} lines, one every 10 ms)`);
  const logProject = await app.project("lines");
  const latencies: number[] = [];
  const fileArrivals = new Map<string, (at: number) => void>();
  // Lines carry the wall-clock time they were written (the same kernel's clock): compare on that clock.
  const ws = await subscribeToProject(`ws://127.0.0.1:${app.port}/api/ws`, app.token, logProject, (message, now) => {
    const at = performance.timeOrigin + now;
    if (message.type === "process.output" && message.name === "ticker") {
      for (const line of message.lines) {
        const m = /^tick (\d+) ([\d.]+)$/.exec(line.text);
        if (m && Number(m[1]) >= 20) latencies.push(at - Number(m[2])); // the first 20 warm up
      }
    } else if (message.type === "file.created") fileArrivals.get(message.file.path)?.(at);
  });
  const ticks = LINES + 20;
  await api("POST", `/api/sandbox/${logProject}/processes`, {
    name: "ticker",
    command: `exec node -e "let i=0;const t=setInterval(()=>{console.log('tick '+i+' '+(performance.timeOrigin+performance.now()).toFixed(3));if(++i>=${ticks})clearInterval(t)},10)"`,
  });
  const deadline = Date.now() + 60_000;
  while (latencies.length < LINES && Date.now() < deadline) await Bun.sleep(50);
  const lines = sorted(latencies);
  console.log(
    `  p50 ${ms(pick(lines, 0.5))}   p99 ${ms(pick(lines, 0.99))}   max ${ms(lines.at(-1)!)}   (${lines.length} lines)   goal p99 < ${LINE_GOAL_MS} ms: ${verdict(pick(lines, 0.99) < LINE_GOAL_MS)}`,
  );
  const fileLatencies: number[] = [];
  for (let i = 0; i < 50; i++) {
    const filePath = `f${i}.txt`;
    const arrived = new Promise<number>((resolve) => fileArrivals.set(filePath, resolve));
    const started = performance.timeOrigin + performance.now();
    await api("POST", `/api/files/${logProject}`, { path: filePath, content: "x" });
    fileLatencies.push((await arrived) - started);
  }
  ws.close();
  const files = sorted(fileLatencies.slice(10));
  console.log(`  baseline, POST /api/files → 'file.created' on the same socket: p50 ${ms(pick(files, 0.5))}   p99 ${ms(pick(files, 0.99))}`);
} finally {
  await app.close();
}
