/**
 * `SandboxFiles` for the local provider: operations on the host side of the bind-mounted project folder
 * (through `safe-fs.ts`, so planted symlinks never lead outside it), with files handed to the sandbox uid,
 * and `watch` on Bun's recursive `fs.watch`.
 *
 * The watcher keeps what it last knew of each file (inode, size, mtime). That tells a command's change from
 * the echo of our own `write`, and lets a removed or moved-away folder report each file it held.
 *
 * @example
 * const files = createLocalFiles("/srv/sandboxes/abc/project", { uid: 200123, gid: 200123 });
 * const stop = await files.watch((c) => console.log(c.type, c.path));
 */
import fs from "node:fs";
import { FileSignatures } from "../file-signatures.ts";
import { isIgnoredName, isIgnoredPath } from "../ignored-paths.ts";
import { MAX_SANDBOX_READ_BYTES, type FileChange, type SandboxFiles } from "../types.ts";
import { listAt, readAt, removeAt, renameAt, signature, statAt, writeAt, type Owner } from "./safe-fs.ts";

/** How long events are gathered before they are looked at (one `write` makes several). */
const BATCH_MS = 5;

export function createLocalFiles(projectDir: string, owner: Owner): SandboxFiles & { close(): void } {
  const listeners = new Set<(change: FileChange) => void>();
  /** path → signature, while anyone watches. */
  let known: FileSignatures | null = null;
  let watcher: fs.FSWatcher | null = null;
  let pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const emit = (change: FileChange) => {
    for (const l of listeners) {
      try {
        l(change);
      } catch {
        // a listener's failure is its own
      }
    }
  };

  function forgetUnder(rel: string, report: boolean) {
    if (!known) return;
    for (const p of known.forgetUnder(rel)) if (report) emit({ type: "remove", path: p });
  }

  function look(rel: string) {
    if (!known) return;
    const st = statAt(projectDir, rel);
    if (st?.isFile()) {
      if (!known.isNews(rel, signature(st))) return; // our own write, or already reported
      emit({ type: "write", path: rel });
    } else if (st?.isDirectory()) {
      // A folder made or moved in: its files may predate the watch on it.
      for (const f of listed(rel)) {
        if (!known.isNews(f.path, f.sig)) continue;
        emit({ type: "write", path: f.path });
      }
    } else {
      forgetUnder(rel, true); // removed, moved away, or replaced by something that is not a file
    }
  }

  function flush() {
    timer = null;
    const batch = pending;
    pending = new Set();
    for (const rel of batch) {
      try {
        look(rel);
      } catch {
        // raced with another change; its own event follows
      }
    }
  }

  /**
   * The project's files the sync sees, as E2B's listing has them: ignored folders are not walked into, and
   * ignored paths that are not a single name (the root `out/`) are left out after.
   */
  const listed = (rel?: string) => listAt(projectDir, isIgnoredName, rel).filter((f) => !isIgnoredPath(f.path));

  function startWatching() {
    known = new FileSignatures(listed().map((f) => [f.path, f.sig] as const));
    watcher = fs.watch(projectDir, { recursive: true }, (_event, filename) => {
      if (!filename) return;
      const rel = String(filename);
      if (isIgnoredPath(rel)) return; // before any other work: installs make tens of thousands of events
      pending.add(rel);
      timer ??= setTimeout(flush, BATCH_MS);
    });
    watcher.on("error", () => stopWatching());
  }

  function stopWatching() {
    watcher?.close();
    watcher = null;
    known = null;
    if (timer) clearTimeout(timer);
    timer = null;
    pending.clear();
  }

  return {
    async write(rel, content) {
      const data = typeof content === "string" ? new TextEncoder().encode(content) : content;
      const st = writeAt(projectDir, rel, data, owner);
      known?.set(rel, signature(st));
    },
    async read(rel, options) {
      return readAt(projectDir, rel, options?.maxBytes ?? MAX_SANDBOX_READ_BYTES);
    },
    async remove(rel) {
      removeAt(projectDir, rel);
      forgetUnder(rel, false);
    },
    async rename(from, to) {
      renameAt(projectDir, from, to, owner);
      known?.move(from, to, (moved) => !isIgnoredPath(moved));
    },
    async list() {
      return listed().map(({ path, size }) => ({ path, size }));
    },
    async watch(onChange) {
      if (!watcher) startWatching();
      listeners.add(onChange);
      return () => {
        listeners.delete(onChange);
        if (!listeners.size) stopWatching();
      };
    },
    close() {
      listeners.clear();
      stopWatching();
    },
  };
}
