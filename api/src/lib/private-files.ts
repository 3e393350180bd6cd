/**
 * Data the app keeps on the host is for the app's user alone: folders 0700, files 0600. PGlite (through
 * Emscripten's file system) creates its files 0666 whatever the umask, so the embedded database folder is
 * closed off as a whole and its files tightened at start and stop.
 *
 * @example
 * makePrivate("data/pg"); // every folder under it 0700, every file 0600
 */
import fs from "node:fs";
import path from "node:path";

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** Creates `dir` (and missing parents) 0700, and makes it 0700 if it already existed. */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  fs.chmodSync(dir, PRIVATE_DIR);
}

/** Every folder under `root` (itself included) 0700 and every file 0600; symbolic links are left alone. */
export function makePrivate(root: string): void {
  const stat = fs.lstatSync(root, { throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return;
  if (!stat.isDirectory()) return fs.chmodSync(root, PRIVATE_FILE);
  fs.chmodSync(root, PRIVATE_DIR);
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const at = path.join(root, entry.name);
    if (entry.isDirectory()) makePrivate(at);
    else if (entry.isFile()) fs.chmodSync(at, PRIVATE_FILE);
  }
}
