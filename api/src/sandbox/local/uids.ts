/**
 * A distinct, non-root host uid per sandbox (from 200000 up), so file ownership, signals and RLIMIT_NPROC
 * never mix between sandboxes. A uid is claimed by an exclusive symlink `<stateDir>/uids/<uid>` → sandbox
 * id, which also keeps two API processes on one machine from handing out the same uid.
 *
 * @example
 * const uid = claimUid("/run/app-sandbox", sandboxId); // 2xxxxx
 * releaseUid("/run/app-sandbox", uid);
 */
import fs from "node:fs";
import path from "node:path";

export const UID_BASE = 200_000;
export const UID_COUNT = 100_000;

export function claimUid(stateDir: string, sandboxId: string): number {
  const dir = path.join(stateDir, "uids");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 64; attempt++) {
    const uid = UID_BASE + Math.floor(Math.random() * UID_COUNT);
    try {
      fs.symlinkSync(sandboxId, path.join(dir, String(uid)));
      return uid;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  throw new Error("no free sandbox uid");
}

export function releaseUid(stateDir: string, uid: number): void {
  fs.rmSync(path.join(stateDir, "uids", String(uid)), { force: true });
}
