/**
 * A fresh data folder for an app a test file starts with the local sandbox, and its removal afterwards.
 * Sandboxes run code as their own users, so the folder must be traversable by them (0711). The app's own
 * shutdown unmounts its sandboxes' disk volumes (they go while its requests drain), so by the time the
 * clean-up runs, after the app's stop, the folder holds no mount.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function appDataDir(prefix: string, cleanups: Array<() => unknown>): string {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dataDir, 0o711);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}
