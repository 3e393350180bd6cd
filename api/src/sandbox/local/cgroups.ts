/**
 * Which cgroup hierarchy holds the sandboxes' memory, process-count and CPU limits on this host, found once
 * per process: cgroup v2 (`memory.max`, `pids.max`, `cpu.max`) in a delegated subtree where the unified
 * hierarchy offers the three controllers, else cgroup v1 under this process's own (writable) cgroups, else
 * none. Current distributions mount only v2, so v1 alone would leave the limits silently off there.
 *
 * The v2 subtree: SANDBOX_CGROUP when set (a folder the operator delegated, e.g. /sys/fs/cgroup/app-sandboxes),
 * else `<own cgroup>/app-sandboxes`. v2 lets a cgroup hand controllers to its children only while it holds
 * no process itself, so in the second case this process's cgroup members move to a leaf `<own>/app-api` first
 * (what a container's or a systemd unit's delegated cgroup expects; the same as Docker-in-Docker does).
 *
 * @example
 * const mode = detectCgroups({ v2Dir: config.sandboxCgroup });
 * mode.kind; // "v2" | "v1" | "none", and mode.detail says where or why not
 */
import fs from "node:fs";
import path from "node:path";

export type Controller = "memory" | "pids" | "cpu";
export const CONTROLLERS: Controller[] = ["memory", "pids", "cpu"];

export type CgroupMode =
  | { kind: "v2" /** Each sandbox's cgroup is made here. */; parent: string; detail: string }
  | { kind: "v1" /** This process's cgroup of each writable controller. */; dirs: Partial<Record<Controller, string>>; detail: string }
  | { kind: "none"; detail: string };

const read = (file: string) => {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** The unified (v2) hierarchy's mount point, from mountinfo (`/sys/fs/cgroup`, or `/sys/fs/cgroup/unified` on hybrid hosts). */
export function cgroup2Mount(mountinfo = read("/proc/self/mountinfo")): string | null {
  for (const line of mountinfo.split("\n")) {
    const [before, after] = line.split(" - ");
    if (after?.split(" ")[0] === "cgroup2") return before!.split(" ")[4] ?? null;
  }
  return null;
}

/** This process's v2 cgroup path (the `0::` line), or null on a v1-only host. */
export function ownCgroup2Path(procCgroup = read("/proc/self/cgroup")): string | null {
  const line = procCgroup.split("\n").find((l) => l.startsWith("0::"));
  return line ? line.slice(3) : null;
}

/** Where this process sits in each v1 hierarchy, when that folder exists and is writable. */
export function ownCgroupV1Dirs(procCgroup = read("/proc/self/cgroup")): Partial<Record<Controller, string>> {
  const found: Partial<Record<Controller, string>> = {};
  for (const line of procCgroup.split("\n")) {
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

const words = (file: string) => read(file).trim().split(/\s+/).filter(Boolean);
const lacking = (dir: string, file: string) => CONTROLLERS.filter((c) => !words(path.join(dir, file)).includes(c));
const enable = (dir: string) => fs.writeFileSync(path.join(dir, "cgroup.subtree_control"), CONTROLLERS.map((c) => `+${c}`).join(" "));

/** Hands the three controllers to `dir`'s children, moving the processes in `dir` to a leaf first if v2 asks for it. */
function delegate(dir: string) {
  if (!lacking(dir, "cgroup.subtree_control").length) return;
  try {
    enable(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EBUSY") throw err;
    const leaf = path.join(dir, "app-api");
    fs.mkdirSync(leaf, { recursive: true });
    for (const pid of words(path.join(dir, "cgroup.procs"))) {
      try {
        fs.writeFileSync(path.join(leaf, "cgroup.procs"), pid);
      } catch {
        // gone meanwhile, or a kernel thread that cannot move: enabling below says if it matters
      }
    }
    enable(dir);
  }
}

function tryV2(v2Dir: string | null): { parent: string } | { problem: string } {
  const mount = cgroup2Mount();
  if (!mount) return { problem: "no cgroup v2 hierarchy is mounted" };
  const own = ownCgroup2Path();
  const parent = v2Dir ?? (own === null ? null : path.join(mount, own, "app-sandboxes"));
  if (!parent) return { problem: "this process has no cgroup v2 path" };
  const above = path.dirname(parent);
  const missing = lacking(above, "cgroup.controllers");
  if (missing.length) return { problem: `cgroup v2 at ${mount} does not offer ${missing.join(", ")} to ${above} (held by v1, or not delegated)` };
  try {
    delegate(above);
    fs.mkdirSync(parent, { recursive: true });
    delegate(parent);
  } catch (err) {
    return { problem: `cgroup v2 subtree ${parent} is not delegated to this process (${String(err)}); set SANDBOX_CGROUP to one that is` };
  }
  return { parent };
}

const detected = new Map<string, CgroupMode>();

/** The mode in force for this process, found once per SANDBOX_CGROUP value. */
export function detectCgroups(opts: { v2Dir?: string | null } = {}): CgroupMode {
  const key = opts.v2Dir ?? "";
  const known = detected.get(key);
  if (known) return known;
  const v2 = tryV2(opts.v2Dir ?? null);
  let mode: CgroupMode;
  if ("parent" in v2) {
    mode = { kind: "v2", parent: v2.parent, detail: `cgroup v2 (memory.max, pids.max, cpu.max) under ${v2.parent}` };
  } else {
    const dirs = ownCgroupV1Dirs();
    const have = CONTROLLERS.filter((c) => dirs[c]);
    const missing = CONTROLLERS.filter((c) => !dirs[c]);
    if (have.length) {
      const gap = missing.length ? `; ${missing.join(", ")} unlimited` : "";
      mode = { kind: "v1", dirs, detail: `cgroup v1 (${have.join(", ")})${gap}; v2 unusable: ${v2.problem}` };
    } else {
      mode = {
        kind: "none",
        detail: `no cgroups: sandbox memory and CPU are unlimited and processes are capped by RLIMIT_NPROC only (${v2.problem}; no writable v1 memory, pids or cpu cgroup)`,
      };
    }
  }
  detected.set(key, mode);
  return mode;
}
