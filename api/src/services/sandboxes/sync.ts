/**
 * Keeps each attached sandbox and storage in step. Storage is the source of truth:
 * - attaching a sandbox writes every stored file into it, then watches it;
 * - a change made through this instance's file service arrives through the `SandboxSync` hook with its bytes
 *   and is written straight in (no storage read); a change made on another instance arrives as a file event
 *   (origin "api", not `pushedBy` this sync) and is read from storage, since only its bytes' key travels;
 * - changes made inside the sandbox by commands are written back through the file service with origin
 *   "sandbox" (so no instance pushes them back in), skipping ignored folders and oversize files.
 * The hash of each path's content is recorded before anything is written in, so the watcher's echo of our own
 * write is dropped by comparing the sandbox's copy with it, never by reading storage.
 * When the bus comes back from a lost connection (events were lost), each sandbox catches up from storage.
 *
 * @example
 * const sync = createSandboxSync(ctx);
 * const files = { ...ctx, sandboxSync: sync }; // what routes and the agent write through
 * await sync.attach(access, sandbox);
 */
import { PROCESS_STATUS } from "@shared/events/process-events";
import { filePathProblem } from "@shared/file-path";
import { MAX_FILE_CONTENT_BYTES } from "@shared/schemas/file";
import * as fileRows from "../../db/files";
import { isFileEvent, type BusEvent } from "../../events/types";
import { isIgnoredPath } from "../../sandbox/ignored-paths";
import type { FileChange, Sandbox } from "../../sandbox/types";
import type { ProjectAccess } from "../access";
import type { SandboxSync, ServiceContext } from "../context";
import { deleteProjectFile, writeFileAtPath } from "../files";

export type AttachedSandbox = {
  sandbox: Sandbox;
  /** The access the sandbox was attached under: what it writes back goes through the file service with it. */
  access: ProjectAccess;
  projectId: string;
  stopWatch: () => void;
  /** Hash of the content we last saw (or wrote) per path. */
  known: Map<string, string>;
  /** Changes are applied one at a time per project, in order. */
  queue: Promise<unknown>;
  pending: Map<string, ReturnType<typeof setTimeout>>;
};

export type SandboxSyncService = SandboxSync & {
  /** Writes every stored file into `sandbox`, watches it, and makes it the project's sandbox on this instance. */
  attach(access: ProjectAccess, sandbox: Sandbox): Promise<{ filesSynced: number }>;
  /** Stops syncing the project's sandbox (the sandbox itself keeps running). */
  detach(projectId: string): void;
  /** The project's attached sandbox on this instance, if any. */
  get(projectId: string): AttachedSandbox | undefined;
  /** How many sandboxes this instance has attached (for /metrics). */
  count(): number;
  /** Every sandbox this instance has attached (their leases are renewed while they live). */
  all(): AttachedSandbox[];
  /** Detaches every sandbox and stops listening to file events. */
  stop(): void;
};

const SYNC_DEBOUNCE_MS = 60;
/** Stored files written into a new sandbox at a time: quick on S3 without hundreds of open requests. */
const PUSH_BATCH = 8;
export const contentHash = (bytes: Uint8Array) => new Bun.CryptoHasher("sha1").update(bytes).digest("hex");

export function createSandboxSync(ctx: ServiceContext): SandboxSyncService {
  const attached = new Map<string, AttachedSandbox>();
  // Written back from the sandbox: its event must not come back in, on any instance.
  const fromSandbox: ServiceContext = { ...ctx, origin: "sandbox", sandboxSync: undefined };
  const id = crypto.randomUUID();

  const enqueue = (a: AttachedSandbox, work: () => Promise<unknown>) => {
    a.queue = a.queue.then(work).catch((error) => ctx.logger.warn("sandbox sync step failed", { projectId: a.projectId, error: String(error) }));
    return a.queue;
  };

  /** Runs `work` in the project's queue when it has a sandbox here; resolves when done, never rejects. */
  const inQueue = async (projectId: string, work: (a: AttachedSandbox) => Promise<unknown>): Promise<void> => {
    const a = attached.get(projectId);
    if (a) await enqueue(a, () => work(a));
  };

  const write = async (a: AttachedSandbox, path: string, bytes: Uint8Array) => {
    a.known.set(path, contentHash(bytes)); // before the write: the watcher may report it at once
    await a.sandbox.files.write(path, bytes);
  };
  const remove = async (a: AttachedSandbox, path: string) => {
    a.known.delete(path);
    await a.sandbox.files.remove(path);
  };
  const rename = async (a: AttachedSandbox, from: string, to: string) => {
    const h = a.known.get(from);
    a.known.delete(from);
    if (h) a.known.set(to, h);
    await a.sandbox.files.rename(from, to);
  };

  // Changes made through other instances (or without the hook): the bytes are only in storage.
  const unsubscribe = ctx.events.subscribe((event: BusEvent) => {
    if (!isFileEvent(event) || event.origin === "sandbox" || event.pushedBy === id) return;
    const a = attached.get(event.projectId);
    if (!a) return;
    void enqueue(a, async () => {
      if (event.type === "file.deleted") return remove(a, event.file.path);
      if (event.type === "file.renamed") return rename(a, event.oldPath, event.file.path);
      const row = await fileRows.findFileByPath(ctx.sql, event.projectId, event.file.path);
      const bytes = row && (await ctx.store.get(row.storageKey));
      if (bytes) await write(a, event.file.path, bytes);
    });
  });

  /**
   * The bus came back from a lost connection: file events other instances sent meanwhile never arrived, so the
   * sandbox takes from storage every file whose content differs from what it was last given, and loses the
   * ones storage no longer has. In the project's queue, after anything the sandbox wrote back before it. Then
   * it says where each of its processes stands once more, for browsers that missed a status change.
   */
  async function resyncFromStorage(a: AttachedSandbox): Promise<void> {
    const rows = await fileRows.listFiles(ctx.sql, a.projectId);
    const stored = new Set(rows.map((row) => row.path));
    for (const path of [...a.known.keys()]) if (!stored.has(path)) await remove(a, path);
    for (let i = 0; i < rows.length; i += PUSH_BATCH) {
      await Promise.all(
        rows.slice(i, i + PUSH_BATCH).map(async (row) => {
          const bytes = await ctx.store.get(row.storageKey);
          if (bytes && a.known.get(row.path) !== contentHash(bytes)) await write(a, row.path, bytes);
        }),
      );
    }
    const { ownerId, projectId } = a.access;
    for (const process of await a.sandbox.processes.list()) {
      await ctx.events.publish({ type: PROCESS_STATUS, projectId, process, ownerId, origin: "sandbox" });
    }
  }
  const stopResync = ctx.events.onResync(() => {
    for (const a of attached.values()) void enqueue(a, () => resyncFromStorage(a));
  });

  function onSandboxChange(a: AttachedSandbox, change: FileChange) {
    if (isIgnoredPath(change.path) || filePathProblem(change.path)) return;
    clearTimeout(a.pending.get(change.path));
    a.pending.set(
      change.path,
      setTimeout(() => {
        a.pending.delete(change.path);
        void enqueue(a, () => syncBack(a, change.path));
      }, SYNC_DEBOUNCE_MS),
    );
  }

  async function syncBack(a: AttachedSandbox, path: string) {
    const bytes = await a.sandbox.files.read(path);
    if (bytes === null) {
      if (!a.known.has(path)) return;
      a.known.delete(path);
      const row = await fileRows.findFileByPath(ctx.sql, a.projectId, path);
      if (row) await deleteProjectFile(fromSandbox, a.access, row.id);
      return;
    }
    if (bytes.length > MAX_FILE_CONTENT_BYTES) {
      ctx.logger.warn("file made in the sandbox is over the size limit; not saved", { projectId: a.projectId, path, size: bytes.length });
      return;
    }
    const h = contentHash(bytes);
    if (a.known.get(path) === h) return; // our own write, or no change
    a.known.set(path, h);
    await writeFileAtPath(fromSandbox, a.access, path, bytes);
  }

  async function pushAllFiles(sandbox: Sandbox, projectId: string, known: Map<string, string>): Promise<number> {
    const rows = await fileRows.listFiles(ctx.sql, projectId);
    for (let i = 0; i < rows.length; i += PUSH_BATCH) {
      await Promise.all(
        rows.slice(i, i + PUSH_BATCH).map(async (row) => {
          const bytes = await ctx.store.get(row.storageKey);
          if (!bytes) return;
          known.set(row.path, contentHash(bytes));
          await sandbox.files.write(row.path, bytes);
        }),
      );
    }
    return rows.length;
  }

  function detach(projectId: string) {
    const a = attached.get(projectId);
    if (!a) return;
    a.stopWatch();
    for (const timer of a.pending.values()) clearTimeout(timer);
    attached.delete(projectId);
  }

  return {
    id,
    written: (projectId, path, bytes) => inQueue(projectId, (a) => write(a, path, bytes)),
    removed: (projectId, path) => inQueue(projectId, (a) => remove(a, path)),
    renamed: (projectId, from, to) => inQueue(projectId, (a) => rename(a, from, to)),

    async attach(access, sandbox) {
      const { projectId } = access;
      const known = new Map<string, string>();
      const filesSynced = await pushAllFiles(sandbox, projectId, known);
      const a: AttachedSandbox = { sandbox, access, projectId, known, stopWatch: () => {}, queue: Promise.resolve(), pending: new Map() };
      a.stopWatch = await sandbox.files.watch((change) => onSandboxChange(a, change));
      attached.set(projectId, a);
      return { filesSynced };
    },
    detach,
    get: (projectId) => attached.get(projectId),
    count: () => attached.size,
    all: () => [...attached.values()],
    stop() {
      unsubscribe();
      stopResync();
      for (const projectId of [...attached.keys()]) detach(projectId);
    },
  };
}
