/**
 * Memory, process-count and CPU limits per sandbox: one cgroup v2 (`memory.max`, `pids.max`, `cpu.max`) in
 * the delegated subtree cgroups.ts found, or cgroups v1 (`memory.limit_in_bytes`, `pids.max`,
 * `cpu.cfs_quota_us`) nested under this API process's own cgroup wherever that is writable, otherwise
 * rlimits. Only RLIMIT_NPROC is a usable stand-in (it counts per host uid, and each sandbox has its own);
 * RLIMIT_AS breaks Vite (WebAssembly) even at 4 GB, so memory and CPU go unlimited without cgroups.
 *
 * @example
 * const limits = createLimits("abc", { memoryMb: 1024, pids: 512, cpuPercent: 100 }, logger);
 * Bun.spawn(limits.wrap(["nsenter", …]));  // the process enters the cgroups before it execs
 * await limits.destroy();
 */
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../lib/logger.ts";
import { CONTROLLERS, type CgroupMode, type Controller, detectCgroups } from "./cgroups.ts";

export type Limits = {
  /** Memory of every process in the sandbox together (tmpfs /tmp included). */
  memoryMb: number;
  /** Processes and threads together. */
  pids: number;
  /** CPU time as a percentage of one core (200 = two cores). */
  cpuPercent: number;
};

export const DEFAULT_LIMITS: Limits = { memoryMb: 1024, pids: 512, cpuPercent: 100 };

export type SandboxLimits = {
  /** The cgroup folder of each controller in use (for tests and clean-up). */
  readonly cgroups: Partial<Record<Controller, string>>;
  /** `argv` prefixed so that the process joins the cgroups (or takes the rlimits) before it execs. */
  wrap(argv: string[]): string[];
  /** The limits asked for. */
  readonly config: Limits;
  /** How often each limit was hit so far (cgroup counters; 0 where no cgroup counts). */
  hits(): { pids: number; memory: number };
  /** Pids still inside the sandbox's cgroups, or null when no cgroup tracks them. */
  pids(): number[] | null;
  /** Removes the cgroups, waiting (briefly) for their last processes to go. */
  destroy(): Promise<void>;
};

let warned = false;

export type LimitOptions = {
  /** Absolute path of util-linux `prlimit` (the fallback runs with an empty environment). */
  prlimit: string;
  /** false: rlimits only, even where cgroups are writable (tests of the fallback). */
  useCgroups?: boolean;
  /** The delegated cgroup v2 folder (SANDBOX_CGROUP); default `<own cgroup>/app-sandboxes`. */
  v2Dir?: string | null;
};

export function createLimits(sandboxId: string, limits: Limits, logger: Logger, opts: LimitOptions): SandboxLimits {
  const mode: CgroupMode = opts.useCgroups === false ? { kind: "none", detail: "cgroups turned off" } : detectCgroups({ v2Dir: opts.v2Dir });
  if (mode.kind === "v2") return createV2Limits(sandboxId, limits, logger, mode.parent);
  const cgroups: Partial<Record<Controller, string>> = {};
  const parents = mode.kind === "v1" ? mode.dirs : {};
  for (const [c, parent] of Object.entries(parents) as [Controller, string][]) {
    const dir = path.join(parent, `app-sandbox-${sandboxId}`);
    try {
      fs.mkdirSync(dir, { recursive: true });
      writeLimit(c, dir, limits);
      cgroups[c] = dir;
    } catch (err) {
      logger.warn("sandbox cgroup unavailable", { controller: c, error: String(err) });
      try {
        fs.rmdirSync(dir);
      } catch {}
    }
  }
  const missing = CONTROLLERS.filter((c) => !cgroups[c]);
  if (missing.length && !warned) {
    warned = true;
    logger.warn("sandbox limits without cgroups", {
      missing,
      fallback: cgroups.pids ? "none" : "RLIMIT_NPROC for pids; memory and CPU unlimited",
    });
  }
  const procFiles = Object.values(cgroups).map((dir) => path.join(dir, "cgroup.procs"));

  const counter = (controller: Controller, file: string, pattern: RegExp): number => {
    const dir = cgroups[controller];
    if (!dir) return 0;
    try {
      return Number(pattern.exec(fs.readFileSync(path.join(dir, file), "utf8"))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };

  return {
    cgroups,
    config: limits,
    hits: () => ({ pids: counter("pids", "pids.events", /^max (\d+)/m), memory: counter("memory", "memory.oom_control", /^oom_kill (\d+)/m) }),
    wrap(argv) {
      const rlimits = cgroups.pids ? [] : [opts.prlimit, `--nproc=${limits.pids}:${limits.pids}`];
      if (!procFiles.length) return [...rlimits, ...argv];
      // The shell writes its own pid into each cgroup, then execs: every later fork starts inside.
      return joinCgroups(procFiles, [...rlimits, ...argv]);
    },
    pids() {
      const dir = cgroups.pids ?? cgroups.memory ?? cgroups.cpu;
      if (!dir) return null;
      try {
        return fs.readFileSync(path.join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
      } catch {
        return [];
      }
    },
    async destroy() {
      for (const dir of Object.values(cgroups)) await removeCgroup(dir, logger);
    },
  };
}

/** `argv` behind a shell that writes its own pid into each cgroup, then execs: every later fork starts inside. */
function joinCgroups(procFiles: string[], argv: string[]): string[] {
  const script = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';
  return ["/bin/sh", "-c", script, "sh", String(procFiles.length), ...procFiles, ...argv];
}

/** One v2 cgroup holds all three limits; its counters are `pids.events` and `memory.events`. */
function createV2Limits(sandboxId: string, limits: Limits, logger: Logger, parent: string): SandboxLimits {
  const dir = path.join(parent, `app-sandbox-${sandboxId}`);
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.writeFileSync(path.join(dir, "memory.max"), String(limits.memoryMb * 1024 * 1024));
    // Without swap a hog is OOM-killed at the limit rather than swapping past it (v1's memsw does the same).
    if (fs.existsSync(path.join(dir, "memory.swap.max"))) fs.writeFileSync(path.join(dir, "memory.swap.max"), "0");
    fs.writeFileSync(path.join(dir, "pids.max"), String(limits.pids));
    fs.writeFileSync(path.join(dir, "cpu.max"), `${Math.max(1000, Math.round(limits.cpuPercent * 1000))} 100000`);
  } catch (err) {
    try {
      fs.rmdirSync(dir);
    } catch {}
    throw new Error(`cannot set the sandbox's cgroup v2 limits in ${dir}: ${String(err)}`);
  }
  const counter = (file: string, pattern: RegExp) => {
    try {
      return Number(pattern.exec(fs.readFileSync(path.join(dir, file), "utf8"))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const cgroups = Object.fromEntries(CONTROLLERS.map((c) => [c, dir])) as Record<Controller, string>;
  return {
    cgroups,
    config: limits,
    hits: () => ({ pids: counter("pids.events", /^max (\d+)/m), memory: counter("memory.events", /^oom_kill (\d+)/m) }),
    wrap: (argv) => joinCgroups([path.join(dir, "cgroup.procs")], argv),
    pids() {
      try {
        return fs.readFileSync(path.join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
      } catch {
        return [];
      }
    },
    destroy: () => removeCgroup(dir, logger),
  };
}

function writeLimit(c: Controller, dir: string, limits: Limits) {
  if (c === "memory") {
    const bytes = String(limits.memoryMb * 1024 * 1024);
    fs.writeFileSync(path.join(dir, "memory.limit_in_bytes"), bytes);
    // With swap, the limit must cover memory+swap too, or a hog swaps instead of being OOM-killed.
    const memsw = path.join(dir, "memory.memsw.limit_in_bytes");
    if (fs.existsSync(memsw)) fs.writeFileSync(memsw, bytes);
  } else if (c === "pids") {
    fs.writeFileSync(path.join(dir, "pids.max"), String(limits.pids));
  } else {
    fs.writeFileSync(path.join(dir, "cpu.cfs_period_us"), "100000");
    fs.writeFileSync(path.join(dir, "cpu.cfs_quota_us"), String(Math.max(1000, Math.round(limits.cpuPercent * 1000))));
  }
}

export async function removeCgroup(dir: string, logger: Logger): Promise<void> {
  const deadline = Date.now() + 3000;
  for (;;) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (Date.now() > deadline) {
        logger.warn("sandbox cgroup not removed", { dir, error: String(err) });
        return;
      }
      await Bun.sleep(10);
    }
  }
}

/** Removes a stale sandbox's cgroups (after a crash), whatever their parent. */
export async function removeSandboxCgroups(sandboxId: string, logger: Logger, v2Dir?: string | null): Promise<void> {
  const mode = detectCgroups({ v2Dir });
  const parents = mode.kind === "v2" ? [mode.parent] : mode.kind === "v1" ? Object.values(mode.dirs) : [];
  for (const parent of parents) {
    const dir = path.join(parent, `app-sandbox-${sandboxId}`);
    if (fs.existsSync(dir)) await removeCgroup(dir, logger);
  }
}
