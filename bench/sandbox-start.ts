/**
 * Local sandbox start: time from `provider.create()` to the first command's result (`echo ok`), over
 * RUNS sandboxes (each killed before the next, not timed), as the provider runs by default (a started
 * spare sandbox is handed out) and cold (every piece started on demand). Goal: median under 50 ms.
 * Needs root and the local sandbox's packages (scripts/setup-test-env.sh).
 *
 *   bun bench/sandbox-start.ts [runs]
 *
 * `measureSandboxStart` and `reportSandboxStart` are also used by bench/sandbox-preview.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { silentLogger } from "../api/src/lib/logger.ts";
import { checkLocalSandboxSupport, createLocalProvider } from "../api/src/sandbox/local/index.ts";

/** E2B's published sandbox start time, the figure to compare against (not measured here). */
export const E2B_PUBLISHED_START_MS = 150;
const GOAL_MS = 50;
const WARMUP = 2;

/** Create + first command, `runs` times after WARMUP, with or without a started spare sandbox (sorted, ms). */
export async function measureSandboxStart(spares: number, runs = 20): Promise<number[]> {
  const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-"));
  const provider = createLocalProvider({ rootDir, idleTimeoutMs: 60_000, logger: silentLogger, spares });
  const samples: number[] = [];
  try {
    for (let i = 0; i < WARMUP + runs; i++) {
      const started = performance.now();
      const sandbox = await provider.create("bench");
      const result = await sandbox.run("echo ok");
      const elapsed = performance.now() - started;
      if (result.stdout !== "ok\n") throw new Error(`unexpected output: ${JSON.stringify(result)}`);
      if (i >= WARMUP) samples.push(elapsed);
      await sandbox.kill();
      await Bun.sleep(150); // a user does not create sandboxes back to back; let a spare finish starting
    }
  } finally {
    await provider.shutdown();
    fs.rmSync(rootDir, { recursive: true, force: true });
  }
  return samples.sort((a, b) => a - b);
}

export function reportSandboxStart(label: string, samples: number[]) {
  const pick = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)]!;
  const median = pick(0.5);
  console.log(`${label} (${samples.length} runs after ${WARMUP} warm-up):`);
  console.log(
    `  median ${median.toFixed(1)} ms   p95 ${pick(0.95).toFixed(1)} ms   min ${samples[0]!.toFixed(1)} ms   max ${samples.at(-1)!.toFixed(1)} ms   goal < ${GOAL_MS} ms: ${median < GOAL_MS ? "met" : "NOT met"}`,
  );
}

if (import.meta.main) {
  const runs = Number(process.argv[2] ?? 20);
  const support = await checkLocalSandboxSupport();
  if (!support.ok) {
    console.error(`local sandboxes unavailable: ${support.missing.join("; ")}`);
    process.exit(1);
  }
  console.log(`load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (${os.cpus().length} cores)`);
  reportSandboxStart("local sandbox create + first command, default (a started spare is handed out)", await measureSandboxStart(1, runs));
  reportSandboxStart("local sandbox create + first command, cold (spares: 0: namespace, network, supervisor each time)", await measureSandboxStart(0, runs));
  console.log(`reference (published by E2B, not measured here): E2B sandbox start ~${E2B_PUBLISHED_START_MS} ms`);
}
