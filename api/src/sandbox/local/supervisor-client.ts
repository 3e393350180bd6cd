/**
 * The host's end of a sandbox supervisor (`supervisor.js`): starts the bwrap process tree with a Unix socket
 * as its fd 3, sends commands, and turns the streamed output and exit codes into `RunResult`s. Timeouts and
 * aborts are decided here and carried out by the supervisor (it kills the command's whole pid namespace).
 * Whatever arrives from the sandbox is treated as untrusted: malformed lines end the sandbox.
 *
 * @example
 * const sup = startSupervisor(argv, { logger, onExit });
 * await sup.ready;
 * await sup.run("echo hi", { cwd: "/home/user/project", env, timeoutMs: 5000 });
 */
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import type { Duplex } from "node:stream";
import type { Logger } from "../../lib/logger.ts";
import type { RunOptions, RunResult } from "../types.ts";
import { childrenOf, killQuietly } from "./procs.ts";

export const OUTPUT_CAP = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_LINE = 8 * 1024 * 1024;
const READY_TIMEOUT_MS = 10_000;
/** After a kill is asked for, how long to wait for the exit report before giving up on it. */
const KILL_GRACE_MS = 3_000;

type Pending = {
  stdout: string;
  stderr: string;
  truncated: boolean;
  background: boolean;
  /** Set when the host ended it: the exit code is then reported as null. */
  killed: boolean;
  timedOut: boolean;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** A raw command's stdout (binary, base64 on the wire). */
  onBytes?: (bytes: Uint8Array) => void;
  /** A launched (named) process: told its exit code once its tree is gone. */
  onExit?: (code: number | null) => void;
  settle: (result: RunResult) => void;
  cleanup: () => void;
};

type Message =
  | { t: "ready" }
  | { t: "spawned"; id: number }
  | { t: "out"; id: number; s: 1 | 2; d: string; b?: undefined }
  | { t: "out"; id: number; s: 1; b: string; d?: undefined }
  | { t: "exit"; id: number; code: number | null; signal: string | null; trunc: [boolean, boolean] }
  | { t: "ports"; id: number; q: number; ports: unknown };

/** A long-lived command started by `launch`: no output cap, signalled as a tree, asked for its ports. */
export type LaunchedCommand = {
  exited: Promise<number | null>;
  signal(signal: "SIGTERM" | "SIGKILL"): void;
  ports(): Promise<number[]>;
};

export type Supervisor = {
  /** The outer bwrap process (the host's child). */
  readonly pid: number;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  alive(): boolean;
  run(command: string, opts: RunOptions & { cwd: string; env: Record<string, string> }): Promise<RunResult>;
  /**
   * A command with a stdin and binary stdout (the interactive terminal's helper). It is not "busy" work: it
   * may outlive every request. `onExit` gets the exit code (null when killed or the sandbox stopped).
   */
  runRaw(command: string, opts: RawCommandOptions): RawCommand;
  /** Starts a long-lived command whose output (uncapped) goes to the callbacks; resolves once it is spawned. */
  launch(
    command: string,
    opts: { cwd: string; env: Record<string, string>; onStdout: (chunk: string) => void; onStderr: (chunk: string) => void },
  ): Promise<LaunchedCommand>;
  /** Foreground commands still running. */
  busy(): number;
  /** Ends the whole process tree: the sandbox's pid 1 first, so bwrap reaps it and exits itself. */
  kill(): void;
};

export type RawCommandOptions = {
  cwd: string;
  env: Record<string, string>;
  onStdout: (bytes: Uint8Array) => void;
  onStderr: (text: string) => void;
  onExit: (exitCode: number | null) => void;
};

export type RawCommand = {
  write(bytes: Uint8Array): void;
  /** Closes its stdin. */
  end(): void;
  /** Ends its whole pid namespace. */
  kill(): void;
};

export function startSupervisor(argv: string[], opts: { logger: Logger; onExit: () => void }): Supervisor {
  const child: ChildProcess = spawn(argv[0]!, argv.slice(1), {
    cwd: "/",
    env: {},
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  const chan = child.stdio[3] as Duplex;
  const pending = new Map<number, Pending>();
  const portQueries = new Map<number, (ports: number[]) => void>();
  let nextQuery = 1;
  let nextId = 1;
  let alive = true;
  let stderrTail = "";

  let markReady!: () => void;
  let failReady!: (err: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => {});
  const readyTimer = setTimeout(() => {
    failReady(new Error(`sandbox supervisor did not start within ${READY_TIMEOUT_MS} ms`));
    kill();
  }, READY_TIMEOUT_MS);

  const exited = new Promise<void>((resolve) => {
    child.on("exit", () => {
      alive = false;
      clearTimeout(readyTimer);
      failReady(new Error(`sandbox did not start: ${stderrTail.trim() || "exited"}`));
      for (const [id, p] of pending) finish(id, p, { code: null, signal: null, trunc: [false, false] }, "sandbox stopped");
      for (const answer of portQueries.values()) answer([]);
      portQueries.clear();
      resolve();
      opts.onExit();
    });
  });
  child.on("error", (err) => opts.logger.warn("sandbox process error", { error: String(err) }));

  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (text: string) => {
    stderrTail = (stderrTail + text).slice(-4000);
    opts.logger.debug("sandbox stderr", { text });
  });

  let buffered = "";
  chan.setEncoding("utf8");
  chan.on("error", () => {});
  chan.on("data", (data: string) => {
    buffered += data;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let msg: Message;
      try {
        msg = JSON.parse(line) as Message;
      } catch {
        return protocolError("malformed line");
      }
      handle(msg);
    }
    if (buffered.length > MAX_LINE) protocolError("line too long");
  });

  function protocolError(why: string) {
    opts.logger.error("sandbox supervisor protocol error; stopping the sandbox", { why });
    kill();
  }

  function handle(msg: Message) {
    if (msg.t === "ready") {
      clearTimeout(readyTimer);
      return markReady();
    }
    if (msg.t === "ports") {
      const answer = portQueries.get(msg.q);
      portQueries.delete(msg.q);
      const ports = Array.isArray(msg.ports) ? msg.ports.filter((p): p is number => Number.isInteger(p) && p > 0 && p < 65536).slice(0, 64) : [];
      return answer?.(ports);
    }
    const p = pending.get(msg.id);
    if (!p) return;
    if (msg.t === "out" && typeof msg.b === "string") {
      p.onBytes?.(Buffer.from(msg.b, "base64"));
    } else if (msg.t === "out" && typeof msg.d === "string") {
      const isOut = msg.s === 1;
      if (!p.background) {
        const have = isOut ? p.stdout : p.stderr;
        const room = OUTPUT_CAP - have.length;
        const keep = room >= msg.d.length ? msg.d : msg.d.slice(0, Math.max(0, room));
        if (keep.length < msg.d.length) p.truncated = true;
        if (isOut) p.stdout += keep;
        else p.stderr += keep;
      }
      (isOut ? p.onStdout : p.onStderr)?.(msg.d);
    } else if (msg.t === "spawned" && p.background) {
      p.settle({ exitCode: null, stdout: "", stderr: "", timedOut: false, truncated: false });
    } else if (msg.t === "exit") {
      finish(msg.id, p, msg);
    }
  }

  function finish(id: number, p: Pending, exit: { code: number | null; signal: string | null; trunc: unknown }, note?: string) {
    pending.delete(id);
    p.cleanup();
    p.onExit?.(p.killed ? null : exitCodeOf(exit.code, exit.signal));
    if (note && !p.background) p.stderr += p.stderr && !p.stderr.endsWith("\n") ? `\n${note}\n` : `${note}\n`;
    const trunc = Array.isArray(exit.trunc) && exit.trunc.some(Boolean);
    p.settle({
      exitCode: p.killed ? null : exitCodeOf(exit.code, exit.signal),
      stdout: p.stdout,
      stderr: p.stderr,
      timedOut: p.timedOut,
      truncated: p.truncated || trunc,
    });
  }

  function send(msg: object) {
    if (alive) chan.write(`${JSON.stringify(msg)}\n`);
  }

  function kill() {
    if (!alive || !child.pid) return;
    const pid = child.pid;
    // Killing the namespace's pid 1 ends every process inside; bwrap then reaps it and exits. Killing bwrap
    // first would orphan pid 1 to the host's init, which here never reaps it (a zombie of the sandbox uid).
    const inits = childrenOf(pid);
    inits.forEach((init) => killQuietly(init));
    if (!inits.length) killQuietly(pid);
    else setTimeout(() => alive && killQuietly(pid), 1000).unref?.();
  }

  return {
    pid: child.pid ?? -1,
    ready,
    exited,
    alive: () => alive,
    busy: () => [...pending.values()].filter((p) => !p.background).length,
    runRaw(command, o) {
      const id = nextId++;
      let done = false;
      const p: Pending = {
        stdout: "",
        stderr: "",
        truncated: false,
        background: true,
        killed: false,
        timedOut: false,
        onStderr: o.onStderr,
        onBytes: o.onStdout,
        settle(result) {
          if (done) return;
          done = true;
          o.onExit(result.exitCode);
        },
        cleanup() {},
      };
      if (!alive) {
        queueMicrotask(() => p.settle({ exitCode: null, stdout: "", stderr: "", timedOut: false, truncated: false }));
      } else {
        pending.set(id, p);
        send({ t: "run", id, cmd: command, cwd: o.cwd, env: o.env, bg: false, raw: true });
      }
      return {
        write: (bytes) => void (!done && send({ t: "in", id, b: Buffer.from(bytes).toString("base64") })),
        end: () => void (!done && send({ t: "in", id, end: true })),
        kill() {
          if (done) return;
          p.killed = true;
          send({ t: "kill", id });
        },
      };
    },
    kill,
    launch(command, o) {
      if (!alive) return Promise.reject(new Error("sandbox stopped"));
      const id = nextId++;
      let onExit!: (code: number | null) => void;
      const exited = new Promise<number | null>((resolve) => (onExit = resolve));
      return new Promise<LaunchedCommand>((resolve) => {
        const handle: LaunchedCommand = {
          exited,
          signal: (signal) => send({ t: "signal", id, sig: signal }),
          ports() {
            if (!alive || !pending.has(id)) return Promise.resolve([]);
            const q = nextQuery++;
            return new Promise<number[]>((answer, fail) => {
              portQueries.set(q, answer);
              send({ t: "ports", id, q });
              // A supervisor too busy to answer soon is asked again on the next poll.
              setTimeout(() => portQueries.delete(q) && fail(new Error("no answer about ports")), 5_000).unref?.();
            });
          },
        };
        let settled = false;
        pending.set(id, {
          stdout: "",
          stderr: "",
          truncated: false,
          background: true,
          killed: false,
          timedOut: false,
          onStdout: o.onStdout,
          onStderr: o.onStderr,
          onExit,
          settle() {
            if (settled) return;
            settled = true;
            resolve(handle);
          },
          cleanup() {},
        });
        send({ t: "run", id, cmd: command, cwd: o.cwd, env: o.env, bg: true, cap: 0 });
      });
    },
    run(command, o) {
      const background = o.background ?? false;
      const none: RunResult = { exitCode: null, stdout: "", stderr: "", timedOut: false, truncated: false };
      if (!alive) return Promise.resolve({ ...none, stderr: "sandbox stopped\n" });
      if (o.signal?.aborted) return Promise.resolve(none);
      const id = nextId++;
      return new Promise<RunResult>((resolve) => {
        let settled = false;
        const timers: ReturnType<typeof setTimeout>[] = [];
        const p: Pending = {
          stdout: "",
          stderr: "",
          truncated: false,
          background,
          killed: false,
          timedOut: false,
          onStdout: o.onStdout,
          onStderr: o.onStderr,
          settle(result) {
            if (settled) return;
            settled = true;
            resolve(result);
          },
          cleanup() {
            timers.forEach(clearTimeout);
            o.signal?.removeEventListener("abort", onAbort);
          },
        };
        const stop = (why: "timeout" | "abort") => {
          if (!pending.has(id)) return;
          p.killed = true;
          if (why === "timeout") p.timedOut = true;
          send({ t: "kill", id });
          // If the report never comes, answer anyway; the sandbox's own kill ends any leftover.
          timers.push(setTimeout(() => finish(id, p, { code: null, signal: null, trunc: false }), KILL_GRACE_MS));
        };
        const onAbort = () => stop("abort");
        o.signal?.addEventListener("abort", onAbort, { once: true });
        if (!background) timers.push(setTimeout(() => stop("timeout"), o.timeoutMs ?? DEFAULT_TIMEOUT_MS));
        pending.set(id, p);
        send({ t: "run", id, cmd: command, cwd: o.cwd, env: o.env, bg: background });
      });
    },
  };
}

function exitCodeOf(code: number | null, signal: string | null): number | null {
  if (typeof code === "number") return code;
  if (signal) {
    const n = (os.constants.signals as Record<string, number>)[signal];
    return n ? 128 + n : null;
  }
  return null;
}
