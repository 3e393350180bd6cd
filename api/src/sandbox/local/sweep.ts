/**
 * Clean-up after a crash. Each sandbox records its owner (this process's pid and start time) and where its
 * pieces live; a later provider on the same state folder removes the sandboxes whose owner is gone, so a
 * crashed API leaves no namespace, cgroup, uid claim or folder behind for long.
 *
 * @example
 * await sweepStaleSandboxes("/run/app-sandbox", logger);
 */
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../lib/logger.ts";
import type { Layout } from "./layout.ts";
import { removeLayout } from "./layout.ts";
import { removeCgroup, removeSandboxCgroups } from "./limits.ts";
import { netnsPath, removeNetns } from "./network.ts";
import { killQuietly, pidsOfUid, startTime } from "./procs.ts";
import { releaseUid } from "./uids.ts";

type Owner = {
  pid: number;
  start: string | null;
  id: string;
  uid: number;
  netns: string;
  baseDir: string;
  cgroups?: string[];
};

export function writeOwner(layout: Layout, cgroups: string[]): void {
  const owner: Owner = {
    pid: process.pid,
    start: startTime(process.pid),
    id: layout.id,
    uid: layout.uid,
    netns: layout.netns,
    baseDir: layout.baseDir,
    cgroups,
  };
  fs.writeFileSync(path.join(layout.stateDir, "owner.json"), JSON.stringify(owner), { mode: 0o600 });
}

export async function sweepStaleSandboxes(stateRoot: string, logger: Logger): Promise<void> {
  const dir = path.join(stateRoot, "sandboxes");
  let ids: string[];
  try {
    ids = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const id of ids) {
    const stateDir = path.join(dir, id);
    let owner: Owner;
    try {
      owner = JSON.parse(fs.readFileSync(path.join(stateDir, "owner.json"), "utf8")) as Owner;
    } catch {
      // Written right after the folder: without it for a minute means its creator died in between.
      const age = Date.now() - (fs.statSync(stateDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60_000) fs.rmSync(stateDir, { recursive: true, force: true });
      continue;
    }
    if (owner.start !== null && startTime(owner.pid) === owner.start) continue; // its owner still runs
    logger.warn("removing a sandbox left by a stopped API process", { sandboxId: id, ownerPid: owner.pid });
    for (const pid of pidsOfUid(owner.uid)) killQuietly(pid);
    for (const pid of slirpFor(owner.netns)) killQuietly(pid);
    await Bun.sleep(50);
    await removeNetns(owner.netns);
    // Its cgroups sit under its owner's cgroup, which need not be ours.
    for (const dir of owner.cgroups ?? []) {
      if (dir.startsWith("/sys/fs/cgroup/") && path.basename(dir) === `app-sandbox-${id}`) await removeCgroup(dir, logger);
    }
    await removeSandboxCgroups(id, logger);
    removeLayout({ baseDir: owner.baseDir, stateDir });
    releaseUid(stateRoot, owner.uid);
  }
}

function slirpFor(netns: string): number[] {
  const target = netnsPath(netns);
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (argv[0]?.endsWith("slirp4netns") && argv.includes(target)) out.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return out;
}
