/**
 * File operations on a sandbox's project folder from the host, as root, that never follow a symlink the
 * sandbox planted. Every path is walked one component at a time from an open folder descriptor
 * (`/proc/self/fd/<fd>/<name>` with O_NOFOLLOW: openat semantics), so swapping a folder for a link to
 * `/etc` between a check and a use gains nothing. Created files and folders are handed to the sandbox uid.
 *
 * @example
 * writeAt(projectDir, "src/app.ts", bytes, { uid, gid });
 * readAt(projectDir, "src/app.ts"); // Uint8Array | null
 */
import fs from "node:fs";
import { FileTooLargeError } from "../types.ts";

const { O_RDONLY, O_WRONLY, O_CREAT, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

export type Owner = { uid: number; gid: number };

const at = (fd: number, name: string) => `/proc/self/fd/${fd}/${name}`;

export class InvalidPathError extends Error {}

/** Splits a project-relative POSIX path into safe names, or throws. */
export function splitPath(rel: string): string[] {
  if (!rel || rel.length > 4096 || rel.startsWith("/") || rel.includes("\\") || /[\x00-\x1f\x7f]/.test(rel)) {
    throw new InvalidPathError(`invalid path: ${JSON.stringify(rel)}`);
  }
  const parts = rel.split("/").filter((p) => p !== "");
  if (!parts.length || parts.some((p) => p === "." || p === ".." || p.length > 255)) {
    throw new InvalidPathError(`invalid path: ${JSON.stringify(rel)}`);
  }
  return parts;
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/**
 * Opens the folder holding `parts`' last name. With `owner`, missing folders are created for the sandbox
 * uid; without it, a missing folder returns null. A symlink on the way is an error (ELOOP/ENOTDIR).
 */
function openParent(root: string, parts: string[], owner?: Owner): number | null {
  let fd = fs.openSync(root, DIR_FLAGS);
  try {
    for (const name of parts.slice(0, -1)) {
      let next: number;
      try {
        next = fs.openSync(at(fd, name), DIR_FLAGS);
      } catch (err) {
        if (errCode(err) !== "ENOENT" || !owner) throw err;
        try {
          fs.mkdirSync(at(fd, name), { mode: 0o755 });
        } catch (mkErr) {
          if (errCode(mkErr) !== "EEXIST") throw mkErr;
        }
        next = fs.openSync(at(fd, name), DIR_FLAGS);
        fs.fchownSync(next, owner.uid, owner.gid);
      }
      fs.closeSync(fd);
      fd = next;
    }
    return fd;
  } catch (err) {
    fs.closeSync(fd);
    if (!owner && ["ENOENT", "ENOTDIR", "ELOOP"].includes(errCode(err) ?? "")) return null;
    throw err;
  }
}

/**
 * The file's bytes, or null when it is missing or not a regular file. Its size is checked (fstat, on the
 * opened descriptor) before anything is read, and the read stops at `maxBytes` + 1 even if the file grows
 * meanwhile: a sparse `truncate -s 700M` file never costs the API more than `maxBytes` of memory.
 */
export function readAt(root: string, rel: string, maxBytes = Number.MAX_SAFE_INTEGER): Uint8Array | null {
  const parts = splitPath(rel);
  const dir = openParent(root, parts);
  if (dir === null) return null;
  let fd: number;
  try {
    fd = fs.openSync(at(dir, parts.at(-1)!), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    if (["ENOENT", "ENOTDIR", "ELOOP", "ENXIO"].includes(errCode(err) ?? "")) return null;
    throw err;
  } finally {
    fs.closeSync(dir);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return null; // a folder, fifo or device is not a file to read
    if (st.size > maxBytes) throw new FileTooLargeError(rel, st.size, maxBytes);
    const buffer = new Uint8Array(Math.min(st.size, maxBytes) + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = fs.readSync(fd, buffer, length, buffer.length - length, null)) > 0; ) length += n;
    if (length > maxBytes) throw new FileTooLargeError(rel, length, maxBytes);
    return buffer.subarray(0, length);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes in place (a planted symlink is replaced, never followed); returns the file's new stat. */
export function writeAt(root: string, rel: string, data: Uint8Array, owner: Owner): fs.Stats {
  const parts = splitPath(rel);
  const dir = openParent(root, parts, owner)!;
  const leaf = parts.at(-1)!;
  try {
    let fd: number;
    try {
      fd = fs.openSync(at(dir, leaf), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o644);
    } catch (err) {
      if (errCode(err) !== "ELOOP") throw err;
      fs.unlinkSync(at(dir, leaf));
      fd = fs.openSync(at(dir, leaf), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o644);
    }
    try {
      if (!fs.fstatSync(fd).isFile()) throw new InvalidPathError(`not a regular file: ${rel}`);
      fs.ftruncateSync(fd, 0);
      let offset = 0;
      while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset);
      fs.fchownSync(fd, owner.uid, owner.gid);
      return fs.fstatSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } finally {
    fs.closeSync(dir);
  }
}

/** Removes a file or a whole folder; a missing path is not an error. */
export function removeAt(root: string, rel: string): void {
  const parts = splitPath(rel);
  const dir = openParent(root, parts);
  if (dir === null) return;
  try {
    removeEntry(dir, parts.at(-1)!);
  } finally {
    fs.closeSync(dir);
  }
}

function removeEntry(dir: number, name: string): void {
  let child: number;
  try {
    child = fs.openSync(at(dir, name), DIR_FLAGS);
  } catch (err) {
    const code = errCode(err);
    if (code === "ENOENT") return;
    if (code !== "ENOTDIR" && code !== "ELOOP") throw err;
    try {
      fs.unlinkSync(at(dir, name)); // unlink never follows a link
    } catch (unlinkErr) {
      if (errCode(unlinkErr) !== "ENOENT") throw unlinkErr;
    }
    return;
  }
  try {
    for (const entry of fs.readdirSync(`/proc/self/fd/${child}`)) removeEntry(child, entry);
  } finally {
    fs.closeSync(child);
  }
  fs.rmdirSync(at(dir, name));
}

export function renameAt(root: string, from: string, to: string, owner: Owner): void {
  const src = splitPath(from);
  const dst = splitPath(to);
  const srcDir = openParent(root, src);
  if (srcDir === null) throw Object.assign(new Error(`no such file: ${from}`), { code: "ENOENT" });
  try {
    const dstDir = openParent(root, dst, owner)!;
    try {
      fs.renameSync(at(srcDir, src.at(-1)!), at(dstDir, dst.at(-1)!));
    } finally {
      fs.closeSync(dstDir);
    }
  } finally {
    fs.closeSync(srcDir);
  }
}

export type ListedFile = { path: string; size: number; sig: string };

/** Every regular file under `rel` (or the root), skipping folders `ignore` names; links are not followed. */
export function listAt(root: string, ignore: (name: string) => boolean, rel = ""): ListedFile[] {
  const out: ListedFile[] = [];
  let fd: number;
  try {
    fd = fs.openSync(root, DIR_FLAGS);
    for (const name of rel ? splitPath(rel) : []) {
      const next = fs.openSync(at(fd, name), DIR_FLAGS);
      fs.closeSync(fd);
      fd = next;
    }
  } catch (err) {
    if (["ENOENT", "ENOTDIR", "ELOOP"].includes(errCode(err) ?? "")) return out;
    throw err;
  }
  walk(fd, rel, ignore, out);
  return out;
}

function walk(fd: number, prefix: string, ignore: (name: string) => boolean, out: ListedFile[]): void {
  try {
    for (const entry of fs.readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true })) {
      if (ignore(entry.name)) continue;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        let child: number;
        try {
          child = fs.openSync(at(fd, entry.name), DIR_FLAGS);
        } catch {
          continue; // gone or swapped for a link since readdir
        }
        walk(child, rel, ignore, out);
      } else if (entry.isFile()) {
        try {
          const st = fs.lstatSync(at(fd, entry.name));
          if (st.isFile()) out.push({ path: rel, size: st.size, sig: signature(st) });
        } catch {
          // removed since readdir
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** What tells one version of a file from the next without reading it. */
export function signature(st: fs.Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** lstat of a project path, walked safely; null when missing. */
export function statAt(root: string, rel: string): fs.Stats | null {
  const parts = splitPath(rel);
  const dir = openParent(root, parts);
  if (dir === null) return null;
  try {
    return fs.lstatSync(at(dir, parts.at(-1)!));
  } catch {
    return null;
  } finally {
    fs.closeSync(dir);
  }
}
