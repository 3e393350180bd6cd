/**
 * A disk quota the kernel enforces per sandbox: the project folder and the package cache live on a small
 * ext4 file system of their own (a sparse image, loop-mounted `nosuid,nodev`), so a write past its size fails
 * inside the sandbox with ENOSPC while the host disk, and the database on it, are untouched. The image is
 * copied (sparse, about 1 MB) from one made once per size with mkfs, which keeps a sandbox start cheap.
 *
 * A free-space guard watches the host disk under the sandboxes: below the reserve, no sandbox starts and
 * every volume is remounted read-only (writes inside fail with EROFS) until space is back.
 *
 * @example
 * const template = prepareDiskTemplate(rootDir, 2048);
 * mountVolume(template, "/data/sandboxes/abc"); // /data/sandboxes/abc/vol is now a 2 GB file system
 */
import fs from "node:fs";
import path from "node:path";

export const VOLUME_DIR = "vol";
const IMAGE = "disk.img";

function run(argv: string[]): void {
  const r = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (!r.success) throw new Error(`${argv.join(" ")} failed: ${r.stderr.toString().trim() || `exit ${r.exitCode}`}`);
}

/** Makes (once) an empty ext4 image of `sizeMb` under `rootDir` to copy for each sandbox; returns its path. */
export function prepareDiskTemplate(rootDir: string, sizeMb: number): string {
  const template = path.join(rootDir, `.disk-template-${sizeMb}m.img`);
  if (fs.existsSync(template)) return template;
  const tmp = `${template}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.writeFileSync(tmp, "", { mode: 0o600 });
  fs.truncateSync(tmp, sizeMb * 1048576);
  // No reserved blocks (the sandbox gets the whole size), an inode per 4 KB (node_modules is many small
  // files), no journal (the content is a disposable copy of storage) and nothing zeroed up front.
  run(["mkfs.ext4", "-q", "-F", "-m", "0", "-i", "4096", "-O", "^has_journal", "-E", "lazy_itable_init=1,nodiscard", tmp]);
  fs.renameSync(tmp, template);
  return template;
}

/** Copies the template into `baseDir` and mounts it at `baseDir/vol`, reachable (not writable) by `uid`. */
export function mountVolume(template: string, baseDir: string, uid: number): string {
  const image = path.join(baseDir, IMAGE);
  const mountPoint = path.join(baseDir, VOLUME_DIR);
  run(["cp", "--sparse=always", template, image]);
  fs.chmodSync(image, 0o600);
  fs.mkdirSync(mountPoint, { mode: 0o750 });
  run(["mount", "-o", "loop,nosuid,nodev,noatime", image, mountPoint]);
  fs.chownSync(mountPoint, 0, uid);
  fs.chmodSync(mountPoint, 0o750);
  return mountPoint;
}

/** Whether `dir` is a mount point (from /proc/self/mountinfo; paths there escape spaces as \040). */
export function isMounted(dir: string): boolean {
  const target = path.resolve(dir).replace(/ /g, "\\040");
  try {
    return fs
      .readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .some((line) => line.split(" ")[4] === target);
  } catch {
    return false;
  }
}

/** Unmounts `baseDir/vol` if mounted (lazily if something still holds it); the image goes with the folder. */
export function unmountVolume(baseDir: string): void {
  const mountPoint = path.join(baseDir, VOLUME_DIR);
  if (!isMounted(mountPoint)) return;
  const r = Bun.spawnSync(["umount", mountPoint], { stdout: "ignore", stderr: "ignore" });
  if (!r.success) Bun.spawnSync(["umount", "-l", mountPoint], { stdout: "ignore", stderr: "ignore" });
}

/** Remounts a volume read-only (the host disk is nearly full) or read-write again. */
export function setVolumeReadOnly(baseDir: string, readOnly: boolean): void {
  const mountPoint = path.join(baseDir, VOLUME_DIR);
  if (isMounted(mountPoint)) run(["mount", "-o", `remount,${readOnly ? "ro" : "rw"}`, mountPoint]);
}

/** Free space (MB) for unprivileged writers on the file system holding `dir`. */
export function freeMb(dir: string): number {
  const s = fs.statfsSync(dir);
  return (s.bavail * s.bsize) / 1048576;
}
