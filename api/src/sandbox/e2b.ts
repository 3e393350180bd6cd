/**
 * The E2B provider: the only file that imports the `e2b` SDK. Long-lived streams (background commands,
 * directory watches) pass `timeoutMs: 0`, because the SDK's default 60 s stream timeout would kill them.
 * An expired sandbox (SandboxNotFoundError) reads as null from `connect`, i.e. Expired.
 */
import { CommandExitError, FilesystemEventType, Sandbox as E2BSandbox, SandboxNotFoundError } from "e2b";
import type { Logger } from "../lib/logger";
import { FileSignatures } from "./file-signatures";
import { isIgnoredPath } from "./ignored-paths";
import { createProcessTable, type ProcessLauncher } from "./process-table";
import {
  FileTooLargeError,
  MAX_SANDBOX_READ_BYTES,
  TERMINAL_ENV,
  type RunOptions,
  type RunResult,
  type Sandbox,
  type SandboxProvider,
  type TerminalOptions,
  type TerminalSession,
} from "./types";

const ROOT = "/home/user/project";
/** How long E2B keeps a sandbox after the last use; every use pushes it out again. */
const KEEP_ALIVE_MS = 30 * 60_000;
const OUTPUT_CAP = 1024 * 1024;
/** Where each named process's session id is written inside the sandbox (one file per launch). */
const PROCS_DIR = "/tmp/.sandbox-procs";

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
/** Ends every process group recorded in PROCS_DIR (each file holds a session id) and forgets them. */
const KILL_RECORDED =
  `for f in ${PROCS_DIR}/*; do [ -f "$f" ] || continue; case "$f" in *.inodes) ;; ` +
  `*) s=$(cat "$f" 2>/dev/null); [ -n "$s" ] && kill -KILL -- -"$s" 2>/dev/null;; esac; rm -f "$f"; done; true`;
/** Watch events of one path are gathered this long before the file is looked at (one write makes several). */
const WATCH_BATCH_MS = 20;

/**
 * Named processes on E2B: each runs in its own session (`setsid`), whose id it writes to a file, so a signal
 * to the session's process group reaches everything it started, and its listening ports are found by
 * matching the session's socket inodes against /proc/net/tcp{,6}, inside the sandbox.
 */
function e2bLauncher(sbx: E2BSandbox, touch: () => void, abs: (path: string) => string, beforeFirst: () => Promise<unknown>): ProcessLauncher {
  const quiet = (command: string) => sbx.commands.run(command, { timeoutMs: 15_000 }).catch((error: unknown) => error);
  return async (command, { cwd, env, onOutput }) => {
    touch();
    await beforeFirst();
    const pidFile = `${PROCS_DIR}/${crypto.randomUUID()}`;
    const inner = `mkdir -p ${PROCS_DIR}; echo $$ > ${pidFile}; exec bash -c ${shellQuote(command)}`;
    const handle = await sbx.commands.run(`setsid -w bash -c ${shellQuote(inner)}`, {
      background: true,
      cwd: cwd ? abs(cwd) : ROOT,
      envs: env,
      timeoutMs: 0,
      onStdout: (chunk) => onOutput("stdout", chunk),
      onStderr: (chunk) => onOutput("stderr", chunk),
    });
    const group = `"$(cat ${pidFile} 2>/dev/null)"`;
    const signalGroup = (signal: string) => quiet(`s=${group}; [ -n "$s" ] && kill -${signal} -- -"$s" 2>/dev/null; true`);
    const exited = handle
      .wait()
      .then(
        (result) => result.exitCode,
        (error: unknown) => (error instanceof CommandExitError ? error.exitCode : null),
      )
      .then(async (code) => {
        // Whatever the command left behind in its session goes with it.
        await signalGroup("KILL");
        await quiet(`rm -f ${pidFile}`);
        return code;
      });
    return {
      exited,
      signal(signal) {
        touch();
        void signalGroup(signal === "SIGKILL" ? "KILL" : "TERM");
        if (signal === "SIGKILL") void handle.kill().catch(() => {});
      },
      async ports() {
        const script =
          `s=${group}; [ -n "$s" ] || exit 0; ` +
          `for p in $(ps -s "$s" -o pid= 2>/dev/null); do ls -l /proc/$p/fd 2>/dev/null; done | grep -o 'socket:\\[[0-9]*\\]' | tr -dc '0-9\\n' | sort -u > ${pidFile}.inodes; ` +
          `awk 'NR==FNR{i[$1]=1;next} FNR>1 && $4=="0A" && ($10 in i){split($2,a,":"); print a[2]}' ${pidFile}.inodes /proc/net/tcp /proc/net/tcp6 2>/dev/null; rm -f ${pidFile}.inodes`;
        const result = await sbx.commands.run(script, { timeoutMs: 15_000 });
        const ports: number[] = [];
        for (const hex of result.stdout.split(/\s+/)) {
          const port = parseInt(hex, 16);
          if (port > 0 && port < 65536 && !ports.includes(port)) ports.push(port);
        }
        return ports;
      },
    };
  };
}

// --- The interactive terminal ---
/**
 * E2B's own PTY (`sandbox.pty`). Input and resizes are separate requests, so they are chained to keep their
 * order. Closing kills the shell (SIGKILL, the SDK's only way): the kernel then hangs up the foreground job,
 * while jobs started with `&` or `nohup` keep running, as with the local provider.
 */
async function openE2BTerminal(sbx: E2BSandbox, options: TerminalOptions, touch: () => void, logger: Logger): Promise<TerminalSession> {
  let exited = false;
  const exit = (code: number | null) => {
    if (exited) return;
    exited = true;
    options.onExit(code);
  };
  const handle = await sbx.pty.create({
    cols: options.cols,
    rows: options.rows,
    cwd: ROOT,
    envs: { ...options.env, ...TERMINAL_ENV },
    timeoutMs: 0,
    onData: (data) => options.onData(data),
  });
  handle.wait().then(
    (result) => exit(result.exitCode),
    (error: unknown) => exit(error instanceof CommandExitError ? error.exitCode : null),
  );
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = (what: string, fn: () => Promise<unknown>) => {
    queue = queue.then(fn).catch((error: unknown) => logger.debug("e2b pty request failed", { what, error: String(error) }));
  };
  return {
    write(data) {
      if (exited) return;
      touch();
      inOrder("input", () => sbx.pty.sendInput(handle.pid, data));
    },
    resize(cols, rows) {
      if (!exited) inOrder("resize", () => sbx.pty.resize(handle.pid, { cols, rows }));
    },
    close() {
      inOrder("kill", () => sbx.pty.kill(handle.pid));
    },
  };
}

export function createE2BProvider(options: { apiKey: string; logger: Logger; template?: string }): SandboxProvider {
  const live = new Map<string, Sandbox>();
  const opts = { apiKey: options.apiKey };

  /** `connected`: an existing sandbox, which processes started before this API process (or by another instance) may run in. */
  const wrap = (sbx: E2BSandbox, connected: boolean): Sandbox => {
    let lastExtend = 0;
    const touch = () => {
      if (Date.now() - lastExtend < 60_000) return;
      lastExtend = Date.now();
      sbx.setTimeout(KEEP_ALIVE_MS).catch((e) => options.logger.warn("e2b setTimeout failed", { error: String(e) }));
    };
    const abs = (path: string) => `${ROOT}/${path}`;
    // The process table lives in this API process's memory. In a sandbox it connected to, processes an
    // earlier API process or another instance started run on untracked: before this table starts one (its
    // `app` again) every recorded process group ends, so there is never a second copy beside an untracked one.
    let orphansEnded: Promise<unknown> | null = connected ? null : Promise.resolve();
    const endOrphans = () =>
      (orphansEnded ??= sbx.commands
        .run(KILL_RECORDED, { timeoutMs: 15_000 })
        .catch((error: unknown) =>
          options.logger.warn("could not end the processes an earlier API process left in a sandbox", { sandboxId: sbx.sandboxId, error: String(error) }),
        ));

    // While watched: each file's size and modification time as last known, so the echo of our own write is
    // dropped here rather than read back by the sync. Writes under way are waited for before an event of
    // their path is judged, so their signature is recorded first.
    const watched = new Set<FileSignatures>();
    const writing = new Map<string, Promise<unknown>>();
    const signatureOf = async (path: string): Promise<string | null> => {
      const info = await sbx.files.getInfo(abs(path)).catch(() => null);
      return info?.modifiedTime ? `${info.size}:${info.modifiedTime.getTime()}` : null;
    };

    const sandbox: Sandbox = {
      id: sbx.sandboxId,
      processes: createProcessTable(e2bLauncher(sbx, touch, abs, endOrphans)),
      files: {
        async write(path, content) {
          touch();
          const data =
            typeof content === "string" ? content : (content.buffer.slice(content.byteOffset, content.byteOffset + content.byteLength) as ArrayBuffer);
          const done = (async () => {
            await sbx.files.write(abs(path), data);
            if (!watched.size) return;
            const sig = await signatureOf(path);
            if (sig) for (const known of watched) known.set(path, sig);
          })();
          writing.set(path, done);
          try {
            await done;
          } finally {
            if (writing.get(path) === done) writing.delete(path);
          }
        },
        async read(path, options) {
          try {
            // Size first: a sparse or huge file made in the sandbox must not be pulled into the API's memory.
            const limit = options?.maxBytes ?? MAX_SANDBOX_READ_BYTES;
            const info = await sbx.files.getInfo(abs(path));
            if (info.size > limit) throw new FileTooLargeError(path, info.size, limit);
            return await sbx.files.read(abs(path), { format: "bytes" });
          } catch (error) {
            if ((error as Error).name === "NotFoundError") return null;
            throw error;
          }
        },
        async remove(path) {
          await sbx.files.remove(abs(path));
          for (const known of watched) known.forgetUnder(path);
        },
        async rename(from, to) {
          await sbx.files.makeDir(abs(to).split("/").slice(0, -1).join("/"));
          await sbx.files.rename(abs(from), abs(to));
          for (const known of watched) known.move(from, to, (moved) => !isIgnoredPath(moved));
        },
        async list() {
          const entries = await sbx.files.list(ROOT, { depth: 20 });
          return entries
            .filter((e) => e.type === "file")
            .map((e) => ({ path: e.path.slice(ROOT.length + 1), size: e.size }))
            .filter((e) => !isIgnoredPath(e.path));
        },
        async watch(onChange) {
          const known = new FileSignatures();
          const batching = new Map<string, ReturnType<typeof setTimeout>>();
          const judge = async (path: string) => {
            await writing.get(path)?.catch(() => {});
            const sig = await signatureOf(path);
            if (!watched.has(known)) return; // the watch stopped meanwhile
            if (sig && !known.isNews(path, sig)) return; // our own write, or already reported
            onChange({ type: "write", path });
          };
          watched.add(known);
          const handle = await sbx.files
            .watchDir(
              ROOT,
              (event) => {
                const path = event.name;
                if (isIgnoredPath(path)) return;
                if (event.type === FilesystemEventType.REMOVE || event.type === FilesystemEventType.RENAME) {
                  known.forgetUnder(path);
                  onChange({ type: "remove", path });
                } else if (event.type === FilesystemEventType.WRITE || event.type === FilesystemEventType.CREATE) {
                  clearTimeout(batching.get(path));
                  batching.set(
                    path,
                    setTimeout(() => {
                      batching.delete(path);
                      void judge(path);
                    }, WATCH_BATCH_MS),
                  );
                }
              },
              { recursive: true, timeoutMs: 0 },
            )
            .catch((error: unknown) => {
              watched.delete(known);
              throw error;
            });
          return () => {
            watched.delete(known);
            for (const timer of batching.values()) clearTimeout(timer);
            batching.clear();
            void handle.stop();
          };
        },
      },
      async run(command, runOptions: RunOptions = {}): Promise<RunResult> {
        touch();
        const cwd = runOptions.cwd ? abs(runOptions.cwd) : ROOT;
        let stdout = "";
        let stderr = "";
        let truncated = false;
        const collect = (which: "out" | "err") => (chunk: string) => {
          if (which === "out") runOptions.onStdout?.(chunk);
          else runOptions.onStderr?.(chunk);
          const current = which === "out" ? stdout : stderr;
          if (current.length >= OUTPUT_CAP) return void (truncated = true);
          const next = current + chunk.slice(0, OUTPUT_CAP - current.length);
          if (which === "out") stdout = next;
          else stderr = next;
        };
        if (runOptions.background) {
          await sbx.commands.run(command, { background: true, cwd, envs: runOptions.env, timeoutMs: 0, onStdout: collect("out"), onStderr: collect("err") });
          return { exitCode: null, stdout: "", stderr: "", timedOut: false, truncated: false };
        }
        const timeoutMs = runOptions.timeoutMs ?? 120_000;
        try {
          const result = await sbx.commands.run(command, {
            cwd,
            envs: runOptions.env,
            timeoutMs,
            onStdout: collect("out"),
            onStderr: collect("err"),
          });
          return { exitCode: result.exitCode, stdout, stderr, timedOut: false, truncated };
        } catch (error) {
          if (error instanceof CommandExitError) return { exitCode: error.exitCode, stdout, stderr, timedOut: false, truncated };
          if ((error as Error).name === "TimeoutError") return { exitCode: null, stdout, stderr, timedOut: true, truncated };
          throw error;
        }
      },
      async previewTarget() {
        return null;
      },
      publicPreviewHost(port) {
        return sbx.getHost(port);
      },
      async isAlive() {
        return sbx.isRunning().catch(() => false);
      },
      async kill() {
        live.delete(sbx.sandboxId);
        await sbx.kill().catch(() => {});
      },
      openTerminal: (terminal) => (touch(), openE2BTerminal(sbx, terminal, touch, options.logger)),
    };
    return sandbox;
  };

  return {
    kind: "e2b",
    async create() {
      const sbx = await E2BSandbox.create(options.template ?? "base", { ...opts, timeoutMs: KEEP_ALIVE_MS });
      await sbx.files.makeDir(ROOT);
      const sandbox = wrap(sbx, false);
      live.set(sandbox.id, sandbox);
      return sandbox;
    },
    async connect(sandboxId) {
      const known = live.get(sandboxId);
      if (known && (await known.isAlive())) return known;
      try {
        const sandbox = wrap(await E2BSandbox.connect(sandboxId, opts), true);
        live.set(sandboxId, sandbox);
        return sandbox;
      } catch (error) {
        if (error instanceof SandboxNotFoundError) return null;
        throw error;
      }
    },
    async shutdown() {
      // E2B sandboxes outlive this process by design (their timeout ends them); nothing to stop here.
      live.clear();
    },
  };
}
