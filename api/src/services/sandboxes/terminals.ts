/**
 * Interactive terminal sessions: opened with a checked access (an owner's or editor's, services/access.ts), how many a project may have open,
 * and when an idle one is closed. Each session is a shell on a pseudo-terminal in the project's sandbox
 * (`Sandbox.openTerminal`); closing it hangs up like closing a terminal window, so what the user started
 * with `&` or `nohup` keeps running.
 *
 * @example
 * const terminals = createTerminalSessions({ sandboxes, logger, idleMs: 15 * 60_000 });
 * const session = await terminals.open(access, { cols: 80, rows: 24, onData, onEnd });
 * session.input(bytes);
 */
import { MAX_TERMINALS_PER_PROJECT } from "@shared/events/pty-frames";
import { conflict } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { TerminalSession } from "../../sandbox/types";
import type { ProjectAccess } from "../access";
import type { ProjectSandboxes } from "./types";

/** Why a session ended: its shell exited (status, or null when killed / the sandbox stopped), or it sat idle. */
export type TerminalEnd = { reason: "exit"; code: number | null } | { reason: "idle"; idleMs: number };

export type OpenTerminal = {
  input(bytes: Uint8Array): void;
  resize(cols: number, rows: number): void;
  /** Hangs up (the page went away). No `onEnd` follows. */
  close(): void;
};

export type TerminalSessions = {
  /** Throws 409 past the per-project limit, 503 without a sandbox. */
  open(
    access: ProjectAccess,
    options: { cols: number; rows: number; onData: (bytes: Uint8Array) => void; onEnd: (end: TerminalEnd) => void },
  ): Promise<OpenTerminal>;
  /** Open sessions on this server. */
  count(): number;
  /** Hangs up every session (shutdown). */
  closeAll(): void;
};

export function createTerminalSessions(deps: {
  sandboxes: Pick<ProjectSandboxes, "ensure">;
  logger: Logger;
  /** A session with neither input nor output for this long is closed; 0 = never. */
  idleMs: number;
  maxPerProject?: number;
}): TerminalSessions {
  const maxPerProject = deps.maxPerProject ?? MAX_TERMINALS_PER_PROJECT;
  /** projectId → sessions open or opening (counted from the start, so a burst cannot pass the limit). */
  const byProject = new Map<string, Set<symbol>>();
  const closers = new Map<symbol, () => void>();

  const release = (projectId: string, key: symbol) => {
    closers.delete(key);
    const set = byProject.get(projectId);
    set?.delete(key);
    if (set?.size === 0) byProject.delete(projectId);
  };

  return {
    async open(access, options) {
      const { projectId } = access;
      const sandboxPromise = deps.sandboxes.ensure(access);
      const set = byProject.get(projectId) ?? new Set<symbol>();
      if (set.size >= maxPerProject) {
        await sandboxPromise;
        throw conflict(`At most ${maxPerProject} terminals may be open for one project; close one first.`);
      }
      const key = Symbol(projectId);
      set.add(key);
      byProject.set(projectId, set);

      let ended = false;
      let lastActivity = Date.now();
      let idleTimer: ReturnType<typeof setTimeout> | undefined;
      let session: TerminalSession | null = null;
      const finish = (end: TerminalEnd | null) => {
        if (ended) return;
        ended = true;
        clearTimeout(idleTimer);
        release(projectId, key);
        session?.close();
        if (end) options.onEnd(end);
      };
      // One timer per session, re-armed only when it fires: output can arrive thousands of times a second.
      const armIdle = () => {
        if (!deps.idleMs || ended) return;
        idleTimer = setTimeout(
          () => {
            const quiet = Date.now() - lastActivity;
            if (quiet < deps.idleMs) return void armIdle();
            deps.logger.info("terminal idle; closing it", { projectId, idleMs: deps.idleMs });
            finish({ reason: "idle", idleMs: deps.idleMs });
          },
          Math.max(10, deps.idleMs - (Date.now() - lastActivity)),
        );
        idleTimer.unref?.();
      };

      try {
        const sandbox = await sandboxPromise;
        session = await sandbox.openTerminal({
          cols: options.cols,
          rows: options.rows,
          onData: (bytes) => {
            if (ended) return;
            lastActivity = Date.now();
            options.onData(bytes);
          },
          onExit: (code) => finish({ reason: "exit", code }),
        });
      } catch (error) {
        release(projectId, key);
        throw error;
      }
      closers.set(key, () => finish(null));
      if (ended) session.close();
      armIdle();
      return {
        input(bytes) {
          if (ended) return;
          lastActivity = Date.now();
          session!.write(bytes);
        },
        resize(cols, rows) {
          if (!ended) session!.resize(cols, rows);
        },
        close: () => finish(null),
      };
    },
    count: () => closers.size,
    closeAll() {
      for (const close of [...closers.values()]) close();
    },
  };
}
