/**
 * Memory, process-count and CPU limits per sandbox: cgroups v1 (`memory.limit_in_bytes`, `pids.max`,
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

export type Limits = {
  /** Memory of every process in the sandbox together (tmpfs /tmp included). */
  memoryMb: number;
  /** Processes and threads together. */
  pids: number;
  /** CPU time as a percentage of one core (200 = two cores). */
  cpuPercent: number;
};

export const DEFAULT_LIMITS: Limits = { memoryMb: 1024, pids: 512, cpuPercent: 100 };

type Controller = "memory" | "pids" | "cpu";
const CONTROLLERS: Controller[] = ["memory", "pids", "cpu"];

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

/** Where this process sits in each v1 hierarchy, when that folder exists and is writable. */
function ownCgroupDirs(): Partial<Record<Controller, string>> {
  const found: Partial<Record<Controller, string>> = {};
  let text = "";
  try {
    text = fs.readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return found;
  }
  for (const line of text.split("\n")) {
    const [, controllers, cgPath] = line.split(":");
    if (!controllers || cgPath === undefined) continue;
    for (const c of CONTROLLERS) {
      if (!controllers.split(",").includes(c)) continue;
      for (const mount of [`/sys/fs/cgroup/${controllers}`, `/sys/fs/cgroup/${c}`]) {
        const dir = path.join(mount, cgPath);
        try {
          fs.accessSync(path.join(dir, "cgroup.procs"), fs.constants.W_OK);
          found[c] = dir;
          break;
        } catch {
          // not mounted there, or not ours to write
        }
      }
    }
  }
  return found;
}

let warned = false;

export type LimitOptions = {
  /** Absolute path of util-linux `prlimit` (the fallback runs with an empty environment). */
  prlimit: string;
  /** false: rlimits only, even where cgroups are writable (tests of the fallback). */
  useCgroups?: boolean;
};

export function createLimits(sandboxId: string, limits: Limits, logger: Logger, opts: LimitOptions): SandboxLimits {
  const cgroups: Partial<Record<Controller, string>> = {};
  const parents = opts.useCgroups === false ? {} : ownCgroupDirs();
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
      const script = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';
      return ["/bin/sh", "-c", script, "sh", String(procFiles.length), ...procFiles, ...rlimits, ...argv];
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
export async function removeSandboxCgroups(sandboxId: string, logger: Logger): Promise<void> {
  for (const parent of Object.values(ownCgroupDirs())) {
    const dir = path.join(parent, `app-sandbox-${sandboxId}`);
    if (fs.existsSync(dir)) await removeCgroup(dir, logger);
  }
}
