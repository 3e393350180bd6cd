/**
 * A sandbox's named processes, whichever provider runs them: the table (name, command, status, exit code,
 * ports, start time, restarts), the restart policy (a crash is restarted, at most 5 times a minute, then
 * the process stays `crashed`), stop as SIGTERM then SIGKILL after a grace period, and each process's
 * output as time-stamped lines in a bounded ring buffer addressed by cursor. The provider supplies only a
 * launcher: start one command tree, signal that tree, report the ports it listens on.
 *
 * @example
 * const table = createProcessTable(launcher);
 * await table.start("app", "npm run dev");
 * const { lines, cursor } = (await table.logs("app"))!;
 */
import { MAX_PROCESSES, TooManyProcessesError, type ProcessInfo, type ProcessLogLine, type ProcessTableEvent, type SandboxProcesses } from "./types.ts";

export type LaunchedProcess = {
  /** Resolves with the exit code (128+n for a signal where known; null when unknown) once the whole tree is gone. */
  exited: Promise<number | null>;
  /** Signals every process of the tree. */
  signal(signal: "SIGTERM" | "SIGKILL"): void;
  /** TCP ports the tree listens on now (detected in the sandbox, not guessed). */
  ports(): Promise<number[]>;
};

export type ProcessLauncher = (
  command: string,
  options: { cwd?: string; env?: Record<string, string>; onOutput: (stream: "stdout" | "stderr", chunk: string) => void },
) => Promise<LaunchedProcess>;

export type ProcessTableOptions = {
  /** Between SIGTERM and SIGKILL (default 3 s). */
  graceMs?: number;
  /** Automatic restarts allowed in `crashWindowMs` before the process stays crashed (default 5 in 60 s). */
  maxRestarts?: number;
  crashWindowMs?: number;
  /** Wait before an automatic restart (default 250 ms). */
  restartDelayMs?: number;
  /** Output kept per process, in bytes of text (default 512 KB). */
  bufferBytes?: number;
  /** Called for every table operation (a local sandbox postpones its idle stop). */
  onUse?: () => void;
};

/** A process still alive this long without listening on anything reads as running. */
const RUNNING_WITHOUT_PORT_MS = 3_000;
/** Ports are looked for often until the first shows up (the preview waits on it), then now and then. */
const PORT_POLL_STARTING_MS = 100;
const PORT_POLL_RUNNING_MS = 2_000;
/** A line longer than this is cut into pieces, so one runaway line cannot fill the buffer alone. */
const MAX_LINE_CHARS = 16 * 1024;
/** Output without a newline is shown as a line after this pause (prompts, progress). */
const PARTIAL_FLUSH_MS = 100;
/** Output lines reach subscribers in batches this often at most. */
const EMIT_EVERY_MS = 10;

type Entry = {
  info: ProcessInfo;
  options: { cwd?: string; env?: Record<string, string> };
  /** Bumped on every launch: exits and port polls of an earlier launch are ignored. */
  generation: number;
  handle: LaunchedProcess | null;
  stopping: boolean;
  restartTimer: ReturnType<typeof setTimeout> | null;
  pollTimer: ReturnType<typeof setTimeout> | null;
  crashTimes: number[];
  lines: (ProcessLogLine & { seq: number })[];
  bytes: number;
  nextSeq: number;
  partial: { stdout: string; stderr: string };
  partialTimer: ReturnType<typeof setTimeout> | null;
  unsent: ProcessLogLine[];
  emitTimer: ReturnType<typeof setTimeout> | null;
  /** Serialises start/stop/restart of one name. */
  queue: Promise<unknown>;
};

export type ProcessTable = SandboxProcesses & {
  /** Ends every process (the sandbox is going away); nothing restarts afterwards. */
  close(): Promise<void>;
};

/** The longest a stop waits, after SIGKILL, for the process to be reported gone. */
const KILL_REPORT_MS = 10_000;

export function createProcessTable(launch: ProcessLauncher, options: ProcessTableOptions = {}): ProcessTable {
  const graceMs = options.graceMs ?? 3_000;
  const maxRestarts = options.maxRestarts ?? 5;
  const crashWindowMs = options.crashWindowMs ?? 60_000;
  const restartDelayMs = options.restartDelayMs ?? 250;
  const bufferBytes = options.bufferBytes ?? 512 * 1024;
  const entries = new Map<string, Entry>();
  const listeners = new Set<(event: ProcessTableEvent) => void>();
  let closed = false;

  const emit = (event: ProcessTableEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own
      }
    }
  };
  const snapshot = (e: Entry): ProcessInfo => ({ ...e.info, ports: [...e.info.ports] });
  const changed = (e: Entry) => emit({ type: "status", process: snapshot(e) });

  function flushEmit(e: Entry) {
    e.emitTimer = null;
    if (!e.unsent.length) return;
    const lines = e.unsent;
    e.unsent = [];
    emit({ type: "output", name: e.info.name, lines });
  }

  function addLine(e: Entry, stream: "stdout" | "stderr", text: string) {
    const line = { seq: e.nextSeq++, t: new Date().toISOString(), stream, text };
    e.lines.push(line);
    e.bytes += text.length + 1;
    while (e.bytes > bufferBytes && e.lines.length > 1) e.bytes -= e.lines.shift()!.text.length + 1;
    e.unsent.push({ t: line.t, stream, text });
    e.emitTimer ??= setTimeout(() => flushEmit(e), EMIT_EVERY_MS);
  }

  function flushPartial(e: Entry) {
    if (e.partialTimer) clearTimeout(e.partialTimer);
    e.partialTimer = null;
    for (const stream of ["stdout", "stderr"] as const) {
      if (e.partial[stream]) addLine(e, stream, e.partial[stream]);
      e.partial[stream] = "";
    }
  }

  function onOutput(e: Entry, generation: number, stream: "stdout" | "stderr", chunk: string) {
    if (generation !== e.generation) return;
    let text = e.partial[stream] + chunk;
    let nl: number;
    while ((nl = text.indexOf("\n")) >= 0) {
      addLine(e, stream, text.slice(0, nl).replace(/\r$/, ""));
      text = text.slice(nl + 1);
    }
    while (text.length > MAX_LINE_CHARS) {
      addLine(e, stream, text.slice(0, MAX_LINE_CHARS));
      text = text.slice(MAX_LINE_CHARS);
    }
    e.partial[stream] = text;
    if (e.partialTimer) clearTimeout(e.partialTimer);
    e.partialTimer = text || e.partial.stdout || e.partial.stderr ? setTimeout(() => flushPartial(e), PARTIAL_FLUSH_MS) : null;
  }

  function pollPorts(e: Entry, generation: number) {
    const due = e.info.ports.length ? PORT_POLL_RUNNING_MS : PORT_POLL_STARTING_MS;
    e.pollTimer = setTimeout(async () => {
      e.pollTimer = null;
      const handle = e.handle;
      if (!handle || generation !== e.generation || e.stopping) return;
      const ports = await handle.ports().catch(() => null);
      if (generation !== e.generation || e.stopping || !e.handle) return;
      if (ports) {
        const kept = e.info.ports.filter((p) => ports.includes(p));
        const next = [...kept, ...ports.filter((p) => !kept.includes(p))];
        const becameRunning = e.info.status === "starting" && (next.length > 0 || Date.now() - Date.parse(e.info.startedAt!) >= RUNNING_WITHOUT_PORT_MS);
        if (becameRunning) e.info.status = "running";
        if (becameRunning || next.join() !== e.info.ports.join()) {
          e.info.ports = next;
          changed(e);
        }
      }
      pollPorts(e, generation);
    }, due);
  }

  async function launchEntry(e: Entry): Promise<void> {
    const generation = ++e.generation;
    e.stopping = false;
    flushPartial(e);
    e.info.status = "starting";
    e.info.exitCode = null;
    e.info.ports = [];
    e.info.startedAt = new Date().toISOString();
    try {
      e.handle = await launch(e.info.command, { ...e.options, onOutput: (stream, chunk) => onOutput(e, generation, stream, chunk) });
    } catch (error) {
      e.handle = null;
      addLine(e, "stderr", `could not start: ${error instanceof Error ? error.message : String(error)}`);
      e.info.status = "crashed";
      e.info.exitCode = 126;
      changed(e);
      return;
    }
    changed(e);
    const handle = e.handle;
    void handle.exited.then((code) => onExit(e, generation, code));
    pollPorts(e, generation);
  }

  function onExit(e: Entry, generation: number, code: number | null) {
    if (generation !== e.generation) return;
    e.handle = null;
    if (e.pollTimer) clearTimeout(e.pollTimer);
    e.pollTimer = null;
    flushPartial(e);
    e.info.exitCode = code;
    e.info.ports = [];
    if (e.stopping || closed || code === 0) {
      e.info.status = "exited";
      return changed(e);
    }
    const now = Date.now();
    e.crashTimes = e.crashTimes.filter((t) => now - t < crashWindowMs);
    if (e.crashTimes.length >= maxRestarts) {
      addLine(e, "stderr", `[${e.info.name} crashed ${maxRestarts + 1} times within ${Math.round(crashWindowMs / 1000)} s; not restarted again]`);
      e.info.status = "crashed";
      return changed(e);
    }
    e.crashTimes.push(now);
    e.info.restarts++;
    e.info.status = "starting";
    changed(e);
    e.restartTimer = setTimeout(() => {
      e.restartTimer = null;
      if (generation !== e.generation || closed) return;
      e.queue = e.queue.then(async () => {
        if (generation === e.generation && !e.stopping) await launchEntry(e);
      });
    }, restartDelayMs);
  }

  /** Ends the current launch (if any) and waits until its tree is gone (bounded). */
  async function halt(e: Entry): Promise<void> {
    e.stopping = true;
    if (e.restartTimer) clearTimeout(e.restartTimer);
    e.restartTimer = null;
    if (e.pollTimer) clearTimeout(e.pollTimer);
    e.pollTimer = null;
    const handle = e.handle;
    if (!handle) {
      if (e.info.status === "starting" || e.info.status === "running") {
        e.info.status = "exited";
        changed(e);
      }
      return;
    }
    const gone = handle.exited.then(() => true);
    handle.signal("SIGTERM");
    if (!(await goneWithin(gone, graceMs))) {
      handle.signal("SIGKILL");
      // A killed tree is gone as soon as its supervisor reaps it, which a loaded machine may take a while to
      // report; bounded all the same, so a stuck supervisor cannot hang the request.
      await goneWithin(gone, Math.max(graceMs, KILL_REPORT_MS));
    }
  }

  /** Whether `gone` settles within `ms`; its timer is cleared as soon as it does, so none outlives a stop. */
  async function goneWithin(gone: Promise<boolean>, ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([gone, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
    } finally {
      clearTimeout(timer);
    }
  }

  const serial = <T>(e: Entry, work: () => Promise<T>): Promise<T> => {
    const next = e.queue.then(work, work);
    e.queue = next.catch(() => {});
    return next;
  };

  return {
    async start(name, command, startOptions = {}) {
      if (closed) throw new Error("the sandbox is stopping");
      options.onUse?.();
      let e = entries.get(name);
      if (!e) {
        if (entries.size >= MAX_PROCESSES) throw new TooManyProcessesError(`A sandbox runs at most ${MAX_PROCESSES} named processes; stop or reuse one.`);
        e = {
          info: { name, command, status: "exited", exitCode: null, ports: [], startedAt: null, restarts: 0 },
          options: startOptions,
          generation: 0,
          handle: null,
          stopping: false,
          restartTimer: null,
          pollTimer: null,
          crashTimes: [],
          lines: [],
          bytes: 0,
          nextSeq: 0,
          partial: { stdout: "", stderr: "" },
          partialTimer: null,
          unsent: [],
          emitTimer: null,
          queue: Promise.resolve(),
        };
        entries.set(name, e);
      }
      const entry = e;
      return serial(entry, async () => {
        await halt(entry);
        entry.info.command = command;
        entry.options = startOptions;
        entry.info.restarts = 0;
        entry.crashTimes = [];
        await launchEntry(entry);
        return snapshot(entry);
      });
    },

    async stop(name) {
      const e = entries.get(name);
      if (!e) return null;
      options.onUse?.();
      return serial(e, async () => {
        await halt(e);
        return snapshot(e);
      });
    },

    async restart(name, restartOptions) {
      const e = entries.get(name);
      if (!e) return null;
      if (closed) throw new Error("the sandbox is stopping");
      options.onUse?.();
      return serial(e, async () => {
        await halt(e);
        if (restartOptions?.env) e.options = { ...e.options, env: restartOptions.env };
        e.crashTimes = [];
        if (e.info.startedAt) e.info.restarts++;
        await launchEntry(e);
        return snapshot(e);
      });
    },

    async list() {
      return [...entries.values()].map(snapshot);
    },

    async logs(name, since) {
      const e = entries.get(name);
      if (!e) return null;
      const from = since === undefined ? 0 : since;
      const lines = e.lines.filter((l) => l.seq >= from).map(({ t, stream, text }) => ({ t, stream, text }));
      return { lines, cursor: e.nextSeq };
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async close() {
      closed = true;
      await Promise.all(
        [...entries.values()].map(async (e) => {
          await halt(e).catch(() => {});
          if (e.partialTimer) clearTimeout(e.partialTimer);
          if (e.emitTimer) clearTimeout(e.emitTimer);
        }),
      );
      listeners.clear();
    },
  };
}
