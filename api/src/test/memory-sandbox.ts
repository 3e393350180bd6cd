/**
 * A Sandbox held in memory, for service tests that need no real isolation: its watcher reports every change,
 * the sandbox's own writes included (as the local provider's folder watch does), and `inside` plays a command
 * changing files. `run` answers with `runResult` (or what `onRun` returns), recording each call.
 *
 * @example
 * const box = memorySandbox();
 * await sync.attach(uid, projectId, box.sandbox);
 * box.inside.write("made.txt", "x"); // as if a command had made it
 */
import { createProcessTable } from "../sandbox/process-table";
import type { FileChange, RunOptions, RunResult, Sandbox } from "../sandbox/types";

const encoder = new TextEncoder();
const toBytes = (content: Uint8Array | string) => (typeof content === "string" ? encoder.encode(content) : new Uint8Array(content));

export function memorySandbox(id = `mem${crypto.randomUUID().replaceAll("-", "")}`) {
  const files = new Map<string, Uint8Array>();
  const watchers = new Set<(change: FileChange) => void>();
  const runs: { command: string; options: RunOptions }[] = [];
  /** How many times each path was written through `sandbox.files.write`. */
  const writes = new Map<string, number>();
  let onRun: (command: string, options: RunOptions) => Promise<RunResult> | RunResult = () => ({
    exitCode: 0,
    stdout: "",
    stderr: "",
    timedOut: false,
    truncated: false,
  });
  const emit = (change: FileChange) => {
    for (const watcher of watchers) queueMicrotask(() => watcher(change));
  };

  const sandbox: Sandbox = {
    id,
    files: {
      async write(path, content) {
        files.set(path, toBytes(content));
        writes.set(path, (writes.get(path) ?? 0) + 1);
        emit({ type: "write", path });
      },
      async read(path) {
        return files.get(path) ?? null;
      },
      async remove(path) {
        files.delete(path);
        emit({ type: "remove", path });
      },
      async rename(from, to) {
        const bytes = files.get(from);
        if (!bytes) return;
        files.delete(from);
        files.set(to, bytes);
        emit({ type: "remove", path: from });
        emit({ type: "write", path: to });
      },
      async list() {
        return [...files].map(([path, bytes]) => ({ path, size: bytes.length }));
      },
      async watch(onChange) {
        watchers.add(onChange);
        return () => watchers.delete(onChange);
      },
    },
    async run(command, options = {}) {
      runs.push({ command, options });
      return onRun(command, options);
    },
    // A named process is recorded as a background run and keeps "running" (no ports) until it is stopped.
    processes: createProcessTable(
      async (command, { cwd, env }) => {
        runs.push({ command, options: { background: true, cwd, env } });
        await onRun(command, { background: true, cwd, env });
        let end!: (code: number | null) => void;
        const exited = new Promise<number | null>((resolve) => (end = resolve));
        return { exited, signal: (signal) => end(signal === "SIGKILL" ? 137 : 143), ports: async () => [] };
      },
      { graceMs: 100 },
    ),
    previewTarget: async () => null,
    publicPreviewHost: () => null,
    isAlive: async () => true,
    kill: async () => {},
    openTerminal: async () => {
      throw new Error("the in-memory sandbox has no terminal");
    },
  };

  return {
    sandbox,
    files,
    writes,
    runs,
    text: (path: string) => (files.has(path) ? new TextDecoder().decode(files.get(path)) : null),
    /** Sets what `run` answers. */
    answer(fn: typeof onRun) {
      onRun = fn;
    },
    /** Changes made by a command inside the sandbox (not through `sandbox.files`). */
    inside: {
      write(path: string, content: string) {
        files.set(path, toBytes(content));
        emit({ type: "write", path });
      },
      remove(path: string) {
        files.delete(path);
        emit({ type: "remove", path });
      },
    },
  };
}
