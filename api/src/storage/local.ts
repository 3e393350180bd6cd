/**
 * ObjectStore on a local folder: each object is a file at `<dir>/<key>`, so the folder can be read by hand.
 * Writes go to a temp file beside the target and are renamed into place, so a crash never leaves a
 * half-written object. Limits of a filesystem that S3 does not have: a key cannot also be a "folder" of
 * another key ("a/b" and "a/b/c" together), and each '/'-separated part must fit the filesystem's name limit.
 *
 * @example
 * const store = createLocalStore("./data/objects");
 * await store.put("projects/p1/files/src/App.tsx", new TextEncoder().encode("…"));
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { PRIVATE_DIR, PRIVATE_FILE } from "../lib/private-files";
import type { ObjectStore } from "./types";

/** Bytes per piece of `getStream`: a fresh buffer each, so a piece handed on is never overwritten. */
const STREAM_PIECE = 64 * 1024;
/** Temp files (interrupted writes, ping probes) are named like this and never listed as objects. */
const TEMP_NAME = /^\.tmp-[0-9a-f]{16}$/;
const tempName = () => `.tmp-${randomBytes(8).toString("hex")}`;

export function createLocalStore(dir: string): ObjectStore {
  const root = resolve(dir);

  /** The file for `key`, refusing anything that could step outside `root` or alias another key. */
  const pathOf = (key: string): string => {
    checkParts(key, key.split("/"), "key");
    return join(root, ...key.split("/"));
  };

  /** The folder that holds every key starting with `prefix` (the part before its last '/'). */
  const folderOf = (prefix: string): { folder: string; rel: string } => {
    const cut = prefix.lastIndexOf("/");
    const rel = cut === -1 ? "" : prefix.slice(0, cut);
    if (/[\\\0]/.test(prefix)) throw new Error(`Refusing storage prefix ${JSON.stringify(prefix)}: backslash or NUL`);
    if (rel !== "") checkParts(prefix, rel.split("/"), "prefix");
    return { folder: rel === "" ? root : join(root, ...rel.split("/")), rel };
  };

  /** Every key under `folder` (whose key form is `rel`), unsorted. */
  const walk = async (folder: string, rel: string, out: string[]): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (err) {
      if (isCode(err, "ENOENT", "ENOTDIR")) return;
      throw err;
    }
    for (const entry of entries) {
      const key = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(folder, entry.name), key, out);
      else if (entry.isFile() && !TEMP_NAME.test(entry.name)) out.push(key);
    }
  };

  /** Removes now-empty folders from `folder` up to (not including) root. */
  const pruneEmpty = async (folder: string): Promise<void> => {
    while (folder !== root && folder.startsWith(root + sep)) {
      try {
        await rmdir(folder);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      folder = dirname(folder);
    }
  };

  /** Writes `body` to a temp file in `folder`, flushed to disk, and returns its path. */
  const writeTemp = async (folder: string, body: Uint8Array): Promise<string> => {
    const tmp = join(folder, tempName());
    // Stored files are users' project files and images: the app's user alone reads them.
    const handle = await open(tmp, "wx", PRIVATE_FILE);
    try {
      await handle.writeFile(body);
      await handle.datasync();
    } catch (err) {
      await handle.close().catch(() => {});
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await handle.close();
    return tmp;
  };

  const list = async (prefix: string): Promise<string[]> => {
    const { folder, rel } = folderOf(prefix);
    const keys: string[] = [];
    await walk(folder, rel, keys);
    return keys.filter((k) => k.startsWith(prefix)).sort(compareKeys);
  };

  return {
    kind: "local",

    async put(key, body) {
      const file = pathOf(key);
      const folder = dirname(file);
      await mkdir(folder, { recursive: true, mode: PRIVATE_DIR });
      let tmp: string;
      try {
        tmp = await writeTemp(folder, body);
      } catch (err) {
        // A concurrent deletePrefix may have pruned the folder between mkdir and open: make it again once.
        if (!isCode(err, "ENOENT")) throw err;
        await mkdir(folder, { recursive: true, mode: PRIVATE_DIR });
        tmp = await writeTemp(folder, body);
      }
      try {
        await rename(tmp, file);
      } catch (err) {
        await unlink(tmp).catch(() => {});
        throw err;
      }
    },

    async get(key) {
      try {
        const bytes = await readFile(pathOf(key));
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (err) {
        // EISDIR: the key names a folder of other keys, not an object.
        if (isCode(err, "ENOENT", "ENOTDIR", "EISDIR")) return null;
        throw err;
      }
    },

    async getStream(key) {
      const path = pathOf(key);
      try {
        if (!(await stat(path)).isFile()) return null; // a folder of other keys, not an object
      } catch (err) {
        if (isCode(err, "ENOENT", "ENOTDIR", "EISDIR")) return null;
        throw err;
      }
      // Each piece is read on its own (Bun.file slices open and close as they read): no handle is held between
      // pulls, so a stream its consumer drops half-way (a download the browser aborted) leaks nothing.
      const file = Bun.file(path);
      let position = 0;
      // highWaterMark 0: nothing is read ahead of the consumer; each pull reads one piece at its position.
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              const piece = new Uint8Array(await file.slice(position, position + STREAM_PIECE).arrayBuffer());
              if (piece.byteLength === 0) return controller.close();
              position += piece.byteLength;
              controller.enqueue(piece);
            } catch (err) {
              controller.error(err);
            }
          },
        },
        { highWaterMark: 0 },
      );
    },

    async delete(key) {
      const file = pathOf(key);
      try {
        await unlink(file);
      } catch (err) {
        if (isCode(err, "ENOENT", "ENOTDIR", "EISDIR", "EPERM")) return;
        throw err;
      }
      await pruneEmpty(dirname(file));
    },

    async deletePrefix(prefix) {
      refuseEmptyPrefix(prefix);
      const keys = await list(prefix);
      let removed = 0;
      const folders = new Set<string>();
      for (const key of keys) {
        const file = join(root, ...key.split("/"));
        try {
          await unlink(file);
          removed++;
        } catch (err) {
          if (!isCode(err, "ENOENT")) throw err;
        }
        folders.add(dirname(file));
      }
      // Deepest first, so a parent is tried only after its children are gone.
      for (const folder of [...folders].sort((a, b) => b.length - a.length)) await pruneEmpty(folder);
      return removed;
    },

    list,

    async ping() {
      await mkdir(root, { recursive: true, mode: PRIVATE_DIR });
      await chmod(root, PRIVATE_DIR);
      const probe = join(root, tempName());
      await (await open(probe, "wx")).close();
      await rm(probe, { force: true });
    },
  };
}

/**
 * S3's key order: UTF-8 byte order, which is code-point order (plain `sort()` compares UTF-16 units and
 * puts emoji before U+E000–U+FFFF). Both stores sort with it so they list identically.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** An empty prefix would wipe the whole store (every user's projects): no service means that. */
export function refuseEmptyPrefix(prefix: string): void {
  if (prefix === "") throw new Error("Refusing to delete with an empty prefix: that would remove every object in the store");
}

function checkParts(whole: string, parts: string[], what: "key" | "prefix"): void {
  const bad = whole === "" || whole.startsWith("/") || /[\\\0]/.test(whole) || parts.some((p) => p === "" || p === "." || p === ".." || TEMP_NAME.test(p));
  if (bad) {
    throw new Error(
      `Refusing storage ${what} ${JSON.stringify(whole)}: it must be relative, '/'-separated, without empty, '.' or '..' parts, backslashes or NUL`,
    );
  }
}

function isCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === "object" && err !== null && codes.includes((err as { code?: string }).code ?? "");
}
