/**
 * The cost of the local sandbox's hardening, measured in one run: create + first command (`echo ok`) with
 * and without the seccomp filter and the disk-quota mount (a loop-mounted ext4 volume per sandbox), both
 * as the provider runs by default (a started spare is handed out) and cold (every piece started on demand).
 * Configurations are measured in turns, so load from other work on the machine spreads over all of them.
 * Needs root and the local sandbox's packages (scripts/setup-test-env.sh).
 *
 *   bun bench/sandbox-hardening.ts [runs per configuration, default 10]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { silentLogger } from "../api/src/lib/logger.ts";
import { createLocalProvider } from "../api/src/sandbox/local/index.ts";
import type { SandboxProvider } from "../api/src/sandbox/types.ts";
import { requireLocalSandboxes, timeCreateAndEcho } from "./support/local-sandboxes.ts";
import { upperMedian as median } from "./support/stats.ts";

const runs = Number(process.argv[2] ?? 10);
await requireLocalSandboxes();

type Config = { label: string; seccomp: boolean; diskMb: number; spares: number };
const configs: Config[] = [];
for (const spares of [1, 0]) {
  for (const [seccomp, diskMb] of [[false, 0], [true, 0], [false, 2048], [true, 2048]] as const) {
    configs.push({ label: `${spares ? "spare" : "cold "}  seccomp ${seccomp ? "on " : "off"}  quota ${diskMb ? "on " : "off"}`, seccomp, diskMb, spares });
  }
}

const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hardening-"));
fs.chmodSync(rootDir, 0o755);
const providers = new Map<Config, SandboxProvider>();
const samples = new Map<Config, number[]>(configs.map((c) => [c, []]));
try {
  for (const c of configs) {
    const p = createLocalProvider({ rootDir, idleTimeoutMs: 60_000, logger: silentLogger, spares: c.spares, seccomp: c.seccomp, diskMb: c.diskMb, diskReserveMb: 0 });
    providers.set(c, p);
    await (await p.create("warm-up")).kill(); // prepares the provider (checks, disk template) outside the timing
  }
  for (let i = 0; i < runs; i++) {
    for (const c of configs) {
      const p = providers.get(c)!;
      await Bun.sleep(400); // let a spare finish starting, as between two real users' projects
      samples.get(c)!.push(await timeCreateAndEcho(p));
    }
  }
} finally {
  for (const p of providers.values()) await p.shutdown();
  fs.rmSync(rootDir, { recursive: true, force: true });
}

console.log(`create + first command, median of ${runs} (ms); "vs plain" compares with seccomp off, quota off of the same kind:`);
for (const c of configs) {
  const base = configs.find((b) => b.spares === c.spares && !b.seccomp && !b.diskMb)!;
  const m = median(samples.get(c)!);
  const ratio = m / median(samples.get(base)!);
  console.log(`  ${c.label}   ${m.toFixed(1).padStart(7)}   vs plain ${(ratio * 100 - 100 >= 0 ? "+" : "")}${(ratio * 100 - 100).toFixed(0)}%`);
}
