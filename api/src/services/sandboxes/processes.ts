/**
 * A project's named processes (its sandbox's process table), for the routes and for the agent: list, start
 * (or replace), restart, stop, read logs; and, for work already scoped to a project (the agent checking its
 * own work), the `app` process's state, a log tail and a restart. Every call takes the caller's checked access
 * (services/access.ts) and answers 404 for an unknown process name.
 *
 * @example
 * const processes = createSandboxProcesses(ctx, { ensure: lifecycle.ensure });
 * await processes.start(access, { name: "api", command: "node server.js" });
 * const { status, ports } = await processes.appStatus(access); // "running", [5173]
 */
import { APP_PROCESS, type ProcessInfo, type ProcessLogs, type ProcessStatus, type StartProcess } from "@shared/schemas/processes";
import { conflict, notFound } from "../../lib/errors";
import { TooManyProcessesError, type Sandbox } from "../../sandbox/types";
import type { ProjectAccess } from "../access";

export type SandboxProcessesService = ReturnType<typeof createSandboxProcesses>;

/** The `app` process as the agent sees it: "absent" when the project has none (no workflow yet). */
export type AppStatus = { status: ProcessStatus | "absent"; ports: number[]; exitCode: number | null; restarts: number };

export function createSandboxProcesses(deps: { ensure: (access: ProjectAccess) => Promise<Sandbox> }) {
  /** The project's running sandbox (created or reconnected on need, `app` started again with it). */
  const sandboxOf = (access: ProjectAccess): Promise<Sandbox> => deps.ensure(access);

  const found = <T>(value: T | null): T => {
    if (value === null) throw notFound("Process");
    return value;
  };

  async function startOn(sandbox: Sandbox, name: string, command: string): Promise<ProcessInfo> {
    try {
      return await sandbox.processes.start(name, command);
    } catch (error) {
      if (error instanceof TooManyProcessesError) throw conflict(error.message);
      throw error;
    }
  }

  return {
    async list(access: ProjectAccess): Promise<ProcessInfo[]> {
      return (await sandboxOf(access)).processes.list();
    },

    /** Starts `command` as `name`, replacing a process of that name; 409 past the sandbox's limit. */
    async start(access: ProjectAccess, body: StartProcess): Promise<ProcessInfo> {
      return startOn(await sandboxOf(access), body.name, body.command);
    },

    async restartNamed(access: ProjectAccess, name: string): Promise<ProcessInfo> {
      return found(await (await sandboxOf(access)).processes.restart(name));
    },

    async stopNamed(access: ProjectAccess, name: string): Promise<ProcessInfo> {
      return found(await (await sandboxOf(access)).processes.stop(name));
    },

    async logs(access: ProjectAccess, name: string, since?: number): Promise<ProcessLogs> {
      return found(await (await sandboxOf(access)).processes.logs(name, since));
    },

    /** Starts (or restarts) the project's `app` with `command` in `sandbox`. */
    startApp(sandbox: Sandbox, command: string): Promise<ProcessInfo> {
      return startOn(sandbox, APP_PROCESS, command);
    },

    // For the agent's own checks of its work.

    /** The `app` process's status and the ports it listens on. */
    async appStatus(access: ProjectAccess): Promise<AppStatus> {
      const sandbox = await sandboxOf(access);
      const app = (await sandbox.processes.list()).find((p) => p.name === APP_PROCESS);
      if (!app) return { status: "absent", ports: [], exitCode: null, restarts: 0 };
      return { status: app.status, ports: app.ports, exitCode: app.exitCode, restarts: app.restarts };
    },

    /** The last `maxBytes` (about; whole lines) of a process's output, one line per line; "" when it has none. */
    async logTail(access: ProjectAccess, name: string, maxBytes: number): Promise<string> {
      const logs = await (await sandboxOf(access)).processes.logs(name);
      if (!logs) return "";
      const kept: string[] = [];
      let size = 0;
      for (let i = logs.lines.length - 1; i >= 0; i--) {
        const text = logs.lines[i]!.text;
        if (size + text.length + 1 > maxBytes) {
          if (!kept.length) kept.push(text.slice(-maxBytes));
          break;
        }
        kept.push(text);
        size += text.length + 1;
      }
      return kept.reverse().join("\n");
    },

    /** Restarts a process by name; null when the project's sandbox has no such process. */
    async restart(access: ProjectAccess, name: string): Promise<ProcessInfo | null> {
      return (await sandboxOf(access)).processes.restart(name);
    },
  };
}
