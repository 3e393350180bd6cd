/**
 * SandboxProvider: where a project's code runs. Two implementations behind this one interface, chosen
 * once at start-up by SANDBOX_PROVIDER: `local.ts` (bubblewrap on this machine) and `e2b.ts` (E2B cloud).
 * Paths given to `files` are project-relative POSIX paths (already validated by the services).
 */
// Types only: erased at run time, so the provider still loads with nothing but sandbox/ and lib/ (a test runs a
// copy of them as another user, where @shared and its dependencies cannot be resolved).
import type { ProcessInfo, ProcessLogLine } from "@shared/schemas/processes";

export type RunOptions = {
  /** Start and return at once, leaving the process running (servers). Output goes to the callbacks. */
  background?: boolean;
  /** Project-relative working folder (default: the project root). */
  cwd?: string;
  /** Foreground only: kill the command after this long (default 120 s). */
  timeoutMs?: number;
  env?: Record<string, string>;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** Aborting kills the command. */
  signal?: AbortSignal;
};

export type RunResult = {
  /** null when the command was killed (timeout, abort) or is still running (background). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Output beyond the cap (1 MiB per stream) was dropped. */
  truncated: boolean;
  /**
   * What stopped the command short when the sandbox's limits did (its process or memory limit, or the
   * sandbox dying under it), in words for the user; absent otherwise. Also appended to stderr.
   */
  limitHit?: string;
};

export type FileChange = { type: "write" | "remove"; path: string };

export interface SandboxFiles {
  write(path: string, content: Uint8Array | string): Promise<void>;
  /**
   * null when there is no such file. A file over `maxBytes` (default: the largest file a project may hold)
   * rejects with FileTooLargeError before its content is read, so a sparse 700 MB file costs nothing.
   */
  read(path: string, options?: { maxBytes?: number }): Promise<Uint8Array | null>;
  remove(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Every regular file, excluding node_modules, .git, dist and caches. */
  list(): Promise<{ path: string; size: number }[]>;
  /**
   * Calls `onChange` for files created, changed or removed inside the sandbox (by commands), excluding
   * node_modules, .git, dist and caches. Returns a function that stops watching.
   */
  watch(onChange: (change: FileChange) => void): Promise<() => void>;
}

export interface Sandbox {
  /** Unguessable id; part of preview host names. */
  readonly id: string;
  readonly files: SandboxFiles;
  run(command: string, options?: RunOptions): Promise<RunResult>;
  /**
   * Where the API should proxy preview traffic for `port` (local provider), or null when the provider
   * serves previews itself (E2B: use `publicPreviewHost`).
   */
  previewTarget(port: number): Promise<{ hostname: string; port: number } | null>;
  /** E2B's own preview host for `port` (e.g. `5173-<id>.e2b.app`), or null for the local provider. */
  publicPreviewHost(port: number): string | null;
  isAlive(): Promise<boolean>;
  /** Ends every process of the sandbox, background servers included. */
  kill(): Promise<void>;
  /** The sandbox's named, supervised processes (kept for the sandbox's life, whichever request started them). */
  readonly processes: SandboxProcesses;
  /**
   * Local provider: where the host must serve this sandbox's database connections (its 127.0.0.1:5432 leads
   * there, and nowhere else), and the host uid allowed to connect. Absent: the sandbox reaches databases by network (E2B).
   */
  readonly databaseSocket?: { path: string; uid: number; gid: number };

  // --- The interactive terminal ---
  /**
   * Starts an interactive bash on a new pseudo-terminal in the project folder (TERM=xterm-256color), for
   * full-screen programs, job control and Ctrl+C. Rejects when the sandbox cannot give one.
   */
  openTerminal(options: TerminalOptions): Promise<TerminalSession>;
}

// --- The interactive terminal ---
export type TerminalOptions = {
  cols: number;
  rows: number;
  /** What the programs wrote to the terminal, as bytes (not necessarily whole UTF-8 characters). */
  onData: (data: Uint8Array) => void;
  /** Called once: the shell's exit status, or null when it was killed or the sandbox went away. */
  onExit: (exitCode: number | null) => void;
  /** More environment for the shell (the project's own: secrets, DATABASE_URL); TERMINAL_ENV wins over it. */
  env?: Record<string, string>;
};

export interface TerminalSession {
  /** Keyboard input, as a terminal sends it (Ctrl+C is the byte 0x03, delivered as SIGINT by the terminal). */
  write(data: Uint8Array): void;
  resize(cols: number, rows: number): void;
  /**
   * Hangs up, as closing a terminal window does: the foreground program gets SIGHUP and the shell ends;
   * what was started with `&` or `nohup` keeps running.
   */
  close(): void;
}

/** The environment an interactive terminal's shell starts with, on every provider. */
export const TERMINAL_ENV: Record<string, string> = {
  TERM: "xterm-256color",
  COLORTERM: "truecolor",
  PS1: "\\[\\e[1;32m\\]sandbox\\[\\e[0m\\]:\\[\\e[1;34m\\]\\w\\[\\e[0m\\]\\$ ",
};

/**
 * A host folder bound read-only into every sandbox of a provider (local only), where template dependencies
 * installed once live (template-cache.ts). Sandboxes read it; only the host writes it.
 */
export type SharedTemplateCache = {
  /** The folder on the host (root-owned). */
  hostDir: string;
  /** Where it appears inside each sandbox. */
  sandboxDir: string;
  /** The host folder holding a running sandbox's project files, or null when it is not one of this provider's. */
  hostProjectDir(sandbox: Sandbox): string | null;
};

/** How this host bounds its sandboxes (local provider): shown at start-up and in /api/ready's details. */
export type HostLimits = {
  /** The cgroup hierarchy holding memory, process-count and CPU limits, or none (then only RLIMIT_NPROC). */
  cgroups: "v2" | "v1" | "none";
  detail: string;
  /** MAX_SANDBOXES_PER_HOST in force (0 = no cap). */
  maxSandboxes: number;
};

export interface SandboxProvider {
  readonly kind: "local" | "e2b";
  /** Local only: the limits in force on this host. */
  readonly hostLimits?: HostLimits;
  /** The read-only template dependency cache, when this provider has one (local with a cache folder). */
  readonly templateCache?: SharedTemplateCache | null;
  create(projectId: string): Promise<Sandbox>;
  /** The running sandbox, or null when it has expired or never existed. */
  connect(sandboxId: string): Promise<Sandbox | null>;
  /**
   * Stops every sandbox this process started and resolves once each is torn down (the local provider's
   * disk volumes unmounted and folders removed). Nothing starts after it is called.
   */
  shutdown(): Promise<void>;
}

/** The local provider cannot isolate code on this machine: the message says what is missing. */
export class SandboxUnavailableError extends Error {}

/** This host runs MAX_SANDBOXES_PER_HOST sandboxes already: the start is refused (503), nothing was run. */
export class HostFullError extends Error {}

/** A preview asked for a port nothing in the sandbox listens on (no host forward is opened for it). */
export class NothingListeningError extends Error {}

/**
 * The most a sandbox file read pulls into the API by default: the largest file a project may hold
 * (MAX_FILE_CONTENT_BYTES in shared/, which this folder does not import: the local provider runs on its own).
 */
export const MAX_SANDBOX_READ_BYTES = 5 * 1024 * 1024;

/** A sandbox file too large to read into the API (checked by its size before any byte is read). */
export class FileTooLargeError extends Error {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${path} in the sandbox is ${size} bytes, over the ${limit}-byte limit; not read`);
  }
}

// ---- Named, supervised processes (the project's `app` dev server and up to seven more) ----

// The process table's shapes are the wire's (`GET /api/sandbox/{id}/processes`): one definition, in shared/.
export type { ProcessInfo, ProcessLogLine, ProcessStatus } from "@shared/schemas/processes";

export type ProcessTableEvent = { type: "output"; name: string; lines: ProcessLogLine[] } | { type: "status"; process: ProcessInfo };

export interface SandboxProcesses {
  /** Starts `command` as process `name`, replacing (stopping first) one of that name. TooManyProcessesError past the limit. */
  start(name: string, command: string, options?: { cwd?: string; env?: Record<string, string> }): Promise<ProcessInfo>;
  /** SIGTERM to its whole tree, SIGKILL after a grace period; null for an unknown name. */
  stop(name: string): Promise<ProcessInfo | null>;
  /**
   * Stops it (as `stop`) and starts its command again; null for an unknown name. `env`, when given, replaces
   * the environment it was started with (the project's changed), for this start and the automatic ones after.
   */
  restart(name: string, options?: { env?: Record<string, string> }): Promise<ProcessInfo | null>;
  list(): Promise<ProcessInfo[]>;
  /** Lines after `since` (a cursor from an earlier answer; omitted: everything kept), and the next cursor. */
  logs(name: string, since?: number): Promise<{ lines: ProcessLogLine[]; cursor: number } | null>;
  /** Output lines (batched) and status changes of every process, as they happen. */
  subscribe(listener: (event: ProcessTableEvent) => void): () => void;
}

/** Named processes one sandbox may hold: the wire's MAX_NAMED_PROCESSES (process-table.test.ts holds them equal). */
export const MAX_PROCESSES = 8;

export class TooManyProcessesError extends Error {}
