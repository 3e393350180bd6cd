/**
 * Reading the host's process table: which processes a sandbox uid still has, a process's children, and a
 * start time that tells a live owner from a recycled pid.
 *
 * @example
 * pidsOfUid(200123); // [] once a sandbox is fully gone
 */
import fs from "node:fs";

/** Every process (zombies included) whose real or effective uid is `uid`. */
export function pidsOfUid(uid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, "utf8");
      const ids = /^Uid:\s+(\d+)\s+(\d+)/m.exec(status);
      if (ids && (Number(ids[1]) === uid || Number(ids[2]) === uid)) out.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

export function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Field 22 of /proc/<pid>/stat (clock ticks since boot), or null when there is no such process. */
export function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

export function killQuietly(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
