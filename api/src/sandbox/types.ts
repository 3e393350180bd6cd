/**
 * SandboxProvider: where a project's code runs. Two implementations behind this one interface, chosen
 * once at start-up by SANDBOX_PROVIDER: `local.ts` (bubblewrap on this machine) and `e2b.ts` (E2B cloud).
 * Paths given to `files` are project-relative POSIX paths (already validated by the services).
 */

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
}

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

export interface SandboxProvider {
  readonly kind: "local" | "e2b";
  /** The read-only template dependency cache, when this provider has one (local with a cache folder). */
  readonly templateCache?: SharedTemplateCache | null;
  create(projectId: string): Promise<Sandbox>;
  /** The running sandbox, or null when it has expired or never existed. */
  connect(sandboxId: string): Promise<Sandbox | null>;
  /** Stops every sandbox this process started (shutdown). */
  shutdown(): Promise<void>;
}

/** The local provider cannot isolate code on this machine: the message says what is missing. */
export class SandboxUnavailableError extends Error {}

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
