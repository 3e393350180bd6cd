/**
 * One running local sandbox: its supervisor, network, limits and files, and the one way it ends (`kill`),
 * which leaves nothing behind: no process of its uid, no slirp4netns, no namespace, no cgroup, no folder.
 *
 * @example
 * const res = await sandbox.run("npm install", { timeoutMs: 60_000 });
 * const target = await sandbox.previewTarget(5173); // { hostname: "127.0.0.1", port: 4xxxx }
 */
import path from "node:path";
import type { Logger } from "../../lib/logger.ts";
import { createProcessTable, type ProcessTable } from "../process-table.ts";
import { NothingListeningError, TERMINAL_ENV, type RunOptions, type RunResult, type Sandbox, type TerminalOptions, type TerminalSession } from "../types.ts";
import type { createLocalFiles } from "./files.ts";
import { commandEnv, DATABASE_SOCKET_NAME, projectPath, removeLayout, type Layout } from "./layout.ts";
import type { SandboxLimits } from "./limits.ts";
import { isListening, type SandboxNetwork } from "./network.ts";
import { killQuietly, pidsOfUid } from "./procs.ts";
import type { Supervisor } from "./supervisor-client.ts";
import { openLocalTerminal } from "./terminal.ts";
import { releaseUid } from "./uids.ts";

export type LocalSandboxParts = {
  layout: Layout;
  stateRoot: string;
  supervisor: Supervisor;
  network: SandboxNetwork;
  limits: SandboxLimits;
  files: ReturnType<typeof createLocalFiles>;
  idleTimeoutMs: number;
  /** Processes one command may run (its cap, kept below the sandbox's so the supervisor always has room). */
  commandProcs?: number;
  /** However busy, a sandbox is stopped this long after it was handed out (its project gets a fresh one). */
  maxLifetimeMs?: number;
  logger: Logger;
  onGone: (id: string) => void;
};

/** What tests (and operators) may look at: where each host-side piece of the sandbox lives. */
export type LocalSandboxHostInfo = {
  uid: number;
  supervisorPid: number;
  slirpPid: number;
  netns: string;
  cgroups: string[];
  projectDir: string;
  baseDir: string;
};

export class LocalSandbox implements Sandbox {
  readonly id: string;
  readonly files: LocalSandboxParts["files"];
  readonly host: LocalSandboxHostInfo;
  readonly processes: ProcessTable;
  readonly databaseSocket: { path: string; uid: number; gid: number };
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private lifetimeTimer: ReturnType<typeof setTimeout> | null = null;
  private killing: Promise<void> | null = null;
  private active = false;

  constructor(private readonly parts: LocalSandboxParts) {
    const { layout, supervisor, network, limits } = parts;
    this.id = layout.id;
    this.files = parts.files;
    this.databaseSocket = { path: path.join(layout.dbDir, DATABASE_SOCKET_NAME), uid: layout.uid, gid: layout.uid };
    this.host = {
      uid: layout.uid,
      supervisorPid: supervisor.pid,
      slirpPid: network.slirpPid,
      netns: layout.netns,
      cgroups: Object.values(limits.cgroups),
      projectDir: layout.projectDir,
      baseDir: layout.baseDir,
    };
    // Named processes run through the supervisor like any command, each in its own pid namespace, so a
    // stop reaches everything they started; the table lives as long as this sandbox, not a request.
    this.processes = createProcessTable(
      async (command, { cwd, env, onOutput }) => {
        if (this.gone) throw new Error(`sandbox ${this.id} is not running`);
        return supervisor.launch(command, {
          cwd: projectPath(cwd),
          env: { ...commandEnv(), ...cleanEnv(env) },
          onStdout: (chunk) => onOutput("stdout", chunk),
          onStderr: (chunk) => onOutput("stderr", chunk),
        });
      },
      { onUse: () => this.touch() },
    );
  }

  get gone(): boolean {
    return this.killing !== null || !this.parts.supervisor.alive() || !this.parts.network.alive();
  }

  /** Called when the provider hands the sandbox out (a spare waits unhanded, with no idle clock). */
  activate(): void {
    this.active = true;
    this.touch();
    const { maxLifetimeMs, logger } = this.parts;
    if (maxLifetimeMs) {
      this.lifetimeTimer = setTimeout(() => {
        logger.info("sandbox reached its maximum lifetime; stopping", { sandboxId: this.id });
        void this.kill();
      }, maxLifetimeMs);
      this.lifetimeTimer.unref?.();
    }
  }

  /**
   * Postpones the idle stop. Called for the owner's own work (commands, the agent, the terminal), never for
   * preview requests: anyone holding a preview link could otherwise keep a sandbox alive forever.
   */
  touch(): void {
    if (this.killing || !this.active) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.idleCheck(), this.parts.idleTimeoutMs);
    this.idleTimer.unref?.();
  }

  private idleCheck() {
    if (this.parts.supervisor.busy() > 0) return this.touch(); // a long foreground command is not idle
    this.parts.logger.info("sandbox idle; stopping", { sandboxId: this.id });
    void this.kill();
  }

  async run(command: string, options: RunOptions = {}): Promise<RunResult> {
    if (this.gone) throw new Error(`sandbox ${this.id} is not running`);
    this.touch();
    const env = { ...commandEnv(), ...cleanEnv(options.env) };
    const before = this.parts.limits.hits();
    try {
      const result = await this.parts.supervisor.run(command, { ...options, cwd: projectPath(options.cwd), env });
      return this.explainLimits(result, before, options);
    } finally {
      this.touch();
    }
  }

  /**
   * A command that ran into the sandbox's process or memory limit says so in its stderr, and one whose
   * sandbox died under it gets an exit code (137), so callers never report a failure as "no error".
   */
  private get commandProcs(): number {
    return this.parts.commandProcs ?? this.parts.limits.config.pids;
  }

  private explainLimits(result: RunResult, before: { pids: number; memory: number }, options: RunOptions): RunResult {
    if (options.background) return result;
    const after = this.parts.limits.hits();
    const { pids, memoryMb } = this.parts.limits.config;
    const notes: string[] = [];
    // A command's own process cap (below the sandbox's, see supervisor.js) shows only as EAGAIN from fork.
    const forkFailed = /fork: (retry: )?Resource temporarily unavailable|EAGAIN/.test(result.stderr);
    if (after.pids > before.pids || forkFailed) {
      notes.push(`The sandbox hit its process limit (${pids} processes, ${this.commandProcs} for one command): some processes could not start.`);
    }
    if (after.memory > before.memory) notes.push(`The sandbox hit its memory limit (${memoryMb} MB): a process was killed.`);
    const died = result.exitCode === null && !result.timedOut && !options.signal?.aborted && this.gone;
    if (died) notes.push("The sandbox stopped while this command ran; it is recreated on the next command.");
    if (!notes.length) return result;
    const stderr = `${result.stderr}${result.stderr && !result.stderr.endsWith("\n") ? "\n" : ""}${notes.join("\n")}\n`;
    return { ...result, stderr, exitCode: died ? 137 : result.exitCode, limitHit: notes.join(" ") };
  }

  // --- The interactive terminal ---
  async openTerminal(options: TerminalOptions): Promise<TerminalSession> {
    if (this.gone) throw new Error(`sandbox ${this.id} is not running`);
    this.touch();
    const session = openLocalTerminal(this.parts.supervisor, {
      ...options,
      cwd: projectPath(),
      env: { ...commandEnv(), ...cleanEnv(options.env), ...TERMINAL_ENV, TERMINAL_PS1: TERMINAL_ENV.PS1! },
    });
    // Typing is the owner's work: it keeps the sandbox from its idle stop, as commands do.
    return { ...session, write: (data) => (this.touch(), session.write(data)) };
  }

  async previewTarget(port: number): Promise<{ hostname: string; port: number }> {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid port: ${port}`);
    if (this.gone) throw new Error(`sandbox ${this.id} is not running`);
    // Only ports something listens on get a host forward: a preview link must not open host sockets at will.
    if (!isListening(this.parts.supervisor.pid, port)) throw new NothingListeningError(`nothing listens on port ${port}`);
    return { hostname: "127.0.0.1", port: await this.parts.network.forward(port) };
  }

  publicPreviewHost(): string | null {
    return null;
  }

  async isAlive(): Promise<boolean> {
    return !this.gone;
  }

  kill(): Promise<void> {
    this.killing ??= this.teardown();
    return this.killing;
  }

  private async teardown(): Promise<void> {
    const { layout, supervisor, network, limits, files, logger } = this.parts;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.lifetimeTimer) clearTimeout(this.lifetimeTimer);
    files.close();
    void this.processes.close(); // nothing restarts from here on; the supervisor's end ends them all
    supervisor.kill();
    await Promise.race([supervisor.exited, Bun.sleep(2000)]);
    // Belt and braces: anything of the uid still running (it should not be) is killed one by one.
    for (let attempt = 0; attempt < 100; attempt++) {
      const left = [...(limits.pids() ?? []), ...pidsOfUid(layout.uid)];
      if (!left.length) break;
      if (attempt === 20) logger.warn("sandbox processes outlived their namespace", { sandboxId: this.id, left });
      if (attempt >= 20) left.forEach((pid) => killQuietly(pid));
      await Bun.sleep(10);
    }
    // Each step runs even if an earlier one failed: a half-removed sandbox is worse than a logged error.
    const step = async (what: string, fn: () => unknown) => {
      try {
        await fn();
      } catch (err) {
        logger.error("sandbox clean-up step failed", { sandboxId: this.id, step: what, error: String(err) });
      }
    };
    await step("network", () => network.destroy());
    await step("cgroups", () => limits.destroy());
    await step("folders", () => removeLayout(layout));
    await step("uid", () => releaseUid(this.parts.stateRoot, layout.uid));
    this.parts.onGone(this.id);
    logger.debug("sandbox stopped", { sandboxId: this.id });
  }
}

/** Environment names and values that can be passed to a process at all. */
function cleanEnv(env: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env ?? {})) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && typeof v === "string" && !v.includes("\0")) out[k] = v;
  }
  return out;
}
