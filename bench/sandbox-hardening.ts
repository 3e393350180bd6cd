/**
 * The cost of the local sandbox's hardening, measured in one run: create + first command (`echo ok`) with
 * and without the seccomp filter and the disk-quota mount (a loop-mounted ext4 volume per sandbox), both
 * as the provider runs by default (a started spare is handed out) and cold (every piece started on demand).
 * Then a warm template → preview: POST /api/sandbox/{id}/template {template: "react"} on the real server to the
 * first 200 of its preview, the dependencies copied from a template cache filled once and shared by the four
 * servers (seccomp on/off × quota on/off), so only the hardening differs between them.
 * Configurations are measured in turns, so load from other work on the machine spreads over all of them.
 * Needs root, the local sandbox's packages (scripts/setup-test-env.sh) and the npm registry (one install).
 * Goal: hardened within 10% of plain.
 *
 *   bun bench/sandbox-hardening.ts [runs per configuration, default 10] [template runs, default 5]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { silentLogger } from "../api/src/lib/logger.ts";
import { createLocalProvider } from "../api/src/sandbox/local/index.ts";
import type { SandboxProvider } from "../api/src/sandbox/types.ts";
import { loadTemplate } from "../api/src/services/sandboxes/templates.ts";
import { startBenchApp, untilPreviewAnswers, type BenchApp } from "./support/bench-app.ts";
import { requireLocalSandboxes, timeCreateAndEcho } from "./support/local-sandboxes.ts";
import { upperMedian as median } from "./support/stats.ts";

const runs = Number(process.argv[2] ?? 10);
const templateRuns = Number(process.argv[3] ?? 5);
const GOAL_PERCENT = 10;
await requireLocalSandboxes();

type Config = { label: string; seccomp: boolean; diskMb: number; spares: number };
const configs: Config[] = [];
for (const spares of [1, 0]) {
  for (const [seccomp, diskMb] of [
    [false, 0],
    [true, 0],
    [false, 2048],
    [true, 2048],
  ] as const) {
    configs.push({ label: `${spares ? "spare" : "cold "}  seccomp ${seccomp ? "on " : "off"}  quota ${diskMb ? "on " : "off"}`, seccomp, diskMb, spares });
  }
}

const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hardening-"));
fs.chmodSync(rootDir, 0o755);
const providers = new Map<Config, SandboxProvider>();
const samples = new Map<Config, number[]>(configs.map((c) => [c, []]));
try {
  for (const c of configs) {
    const p = createLocalProvider({
      rootDir,
      idleTimeoutMs: 60_000,
      logger: silentLogger,
      spares: c.spares,
      seccomp: c.seccomp,
      diskMb: c.diskMb,
      diskReserveMb: 0,
    });
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
  console.log(`  ${c.label}   ${m.toFixed(1).padStart(7)}   vs plain ${signed(ratio)}`);
}

// Warm template → preview on the real server, one server per hardening configuration --------------------------
type ServerConfig = { label: string; seccomp: boolean; quota: boolean };
const servers: ServerConfig[] = [
  { label: "seccomp off  quota off", seccomp: false, quota: false },
  { label: "seccomp on   quota off", seccomp: true, quota: false },
  { label: "seccomp off  quota on ", seccomp: false, quota: true },
  { label: "seccomp on   quota on ", seccomp: true, quota: true },
];
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hardening-cache-"));
const apps = new Map<ServerConfig, BenchApp>();
const previews = new Map<ServerConfig, number[]>(servers.map((c) => [c, []]));
try {
  for (const c of servers) {
    const env = { SANDBOX_IDLE_MINUTES: "30", SANDBOX_TEMPLATE_CACHE_DIR: cacheDir, SANDBOX_DISK_MB: c.quota ? "2048" : "0", SANDBOX_DISK_RESERVE_MB: "0" };
    apps.set(c, await startBenchApp("bench-hardening-app-", env, { seccomp: c.seccomp }));
  }
  const templateToPreview = async (app: BenchApp) => {
    const projectId = await app.project("hardening");
    const started = performance.now();
    const applied = await app.api<{ url: string }>("POST", `/api/sandbox/${projectId}/template`, { template: "react" });
    await untilPreviewAnswers(app.base, new URL(applied.url).host, { timeoutMs: 120_000, pollMs: 10 });
    return performance.now() - started;
  };
  // The first apply installs into the shared cache; one more per server reads a cold page cache.
  const first = apps.get(servers[0]!)!;
  await templateToPreview(first);
  const cache = first.parts.deps.sandboxes.templateCache!;
  const react = await loadTemplate("react");
  await (cache.pending(react) ?? cache.populate(react));
  for (const c of servers) await templateToPreview(apps.get(c)!);
  for (let i = 0; i < templateRuns; i++) {
    for (const c of servers) {
      previews.get(c)!.push(await templateToPreview(apps.get(c)!));
      await Bun.sleep(200);
    }
  }
} finally {
  for (const app of apps.values()) await app.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}
const plain = median(previews.get(servers[0]!)!);
console.log(`\nwarm react template → first preview 200, median of ${templateRuns} (ms); goal: within ${GOAL_PERCENT}% of plain:`);
for (const c of servers) {
  const m = median(previews.get(c)!);
  const ratio = m / plain;
  const verdict = c === servers[0] ? "" : ratio <= 1 + GOAL_PERCENT / 100 ? "  met" : "  NOT MET";
  console.log(`  ${c.label}   ${m.toFixed(0).padStart(7)}   vs plain ${signed(ratio)}${verdict}`);
}

function signed(ratio: number): string {
  const percent = ratio * 100 - 100;
  return `${percent >= 0 ? "+" : ""}${percent.toFixed(0)}%`;
}
