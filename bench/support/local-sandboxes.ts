/**
 * Local sandboxes for the benches: the check that they can run here at all, and the one figure several
 * benches time, create + first command (`echo ok`), with its report.
 *
 * @example
 * await requireLocalSandboxes(); // exits 1, saying what is missing, where they cannot run
 * reportSandboxStart("cold (spares: 0)", await measureSandboxStart(0, 20));
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { silentLogger } from "../../api/src/lib/logger";
import { checkLocalSandboxSupport, createLocalProvider } from "../../api/src/sandbox/local/index";
import type { SandboxProvider } from "../../api/src/sandbox/types";
import { nearestRank, verdict } from "./stats";

/** E2B's published sandbox start time, the figure to compare against (not measured here). */
export const E2B_PUBLISHED_START_MS = 150;
const START_GOAL_MS = 50;
const START_WARMUP = 2;

export async function requireLocalSandboxes(): Promise<void> {
  const support = await checkLocalSandboxSupport();
  if (!support.ok) {
    console.error(`local sandboxes unavailable: ${support.missing.join("; ")}`);
    process.exit(1);
  }
}

/** ms from `provider.create()` to the first command's result; the sandbox is killed afterwards, untimed. */
export async function timeCreateAndEcho(provider: SandboxProvider): Promise<number> {
  const started = performance.now();
  const sandbox = await provider.create("bench");
  const result = await sandbox.run("echo ok");
  const elapsed = performance.now() - started;
  if (result.stdout !== "ok\n") throw new Error(`unexpected output: ${JSON.stringify(result)}`);
  await sandbox.kill();
  return elapsed;
}

/** Create + first command, `runs` times after a warm-up, with or without a started spare sandbox (sorted, ms). */
export async function measureSandboxStart(spares: number, runs = 20): Promise<number[]> {
  const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-"));
  const provider = createLocalProvider({ rootDir, idleTimeoutMs: 60_000, logger: silentLogger, spares });
  const samples: number[] = [];
  try {
    for (let i = 0; i < START_WARMUP + runs; i++) {
      const elapsed = await timeCreateAndEcho(provider);
      if (i >= START_WARMUP) samples.push(elapsed);
      await Bun.sleep(150); // a user does not create sandboxes back to back; let a spare finish starting
    }
  } finally {
    await provider.shutdown();
    fs.rmSync(rootDir, { recursive: true, force: true });
  }
  return samples.sort((a, b) => a - b);
}

export function reportSandboxStart(label: string, samples: number[]) {
  const pick = (q: number) => nearestRank(samples, q);
  const median = pick(0.5);
  console.log(`${label} (${samples.length} runs after ${START_WARMUP} warm-up):`);
  console.log(
    `  median ${median.toFixed(1)} ms   p95 ${pick(0.95).toFixed(1)} ms   min ${samples[0]!.toFixed(1)} ms   max ${samples.at(-1)!.toFixed(1)} ms   goal < ${START_GOAL_MS} ms: ${verdict(median < START_GOAL_MS)}`,
  );
}
