/**
 * The one place a project's processes get their environment: every command, named process (`app`), terminal,
 * `run_shell`, `run_code`, workflow and dependency install in the project's sandbox starts with what the
 * registered contributors give for the project (its secrets, its DATABASE_URL, …), computed afresh per start.
 * Parts add a contributor; none of them touches a command. A contributor's change reaches running processes
 * through `changed`: every instance restarts the project's `app` if it runs there, with the new environment.
 *
 * @example
 * const sandboxes = createProjectSandboxes(ctx); // sandboxes.env: a ProjectEnv
 * sandboxes.env.register("database", async (projectId) => ({ DATABASE_URL: await urlOf(projectId) }));
 * await sandboxes.env.changed(ownerId, projectId); // e.g. the database was just made: `app` restarts with it
 */
import { APP_PROCESS } from "@shared/schemas/processes";
import type { EventBus } from "../../events/types";
import type { Logger } from "../../lib/logger";
import type { RunOptions, Sandbox, SandboxProcesses, TerminalOptions } from "../../sandbox/types";

/** What one part adds to a project's environment (names it owns; later contributors win a clash). */
export type ProjectEnvContributor = (projectId: string) => Promise<Record<string, string>>;

export interface ProjectEnv {
  /** Adds (or, under the same name, replaces) a contributor; its variables go into every process started from now on. */
  register(name: string, contributor: ProjectEnvContributor): void;
  /** The project's environment now: every contributor's variables, in the order they were registered. */
  forProject(projectId: string): Promise<Record<string, string>>;
  /** The project's environment changed: its `app` restarts with the new one on whichever instance runs it. */
  changed(ownerId: string, projectId: string, names?: string[]): Promise<void>;
}

export function createProjectEnv(deps: { events: EventBus; logger: Logger }): ProjectEnv {
  const contributors = new Map<string, ProjectEnvContributor>();
  return {
    register(name, contributor) {
      contributors.set(name, contributor);
    },
    async forProject(projectId) {
      const parts = await Promise.all(
        [...contributors].map(async ([name, contribute]) => {
          try {
            return await contribute(projectId);
          } catch (error) {
            // One broken part (a database that cannot start) must not stop every command of the project.
            deps.logger.warn("a part of the project's environment could not be computed; its variables are left out", {
              projectId,
              part: name,
              error: String(error),
            });
            return {};
          }
        }),
      );
      return Object.assign({}, ...parts) as Record<string, string>;
    },
    async changed(ownerId, projectId, names = []) {
      await deps.events.publish({ type: "project.env.changed", projectId, ownerId, names, origin: "api" });
    },
  };
}

/**
 * The sandbox as the project's processes must see it: each start gets the project's environment under the
 * caller's own `env` (a build's NODE_ENV=production wins). A restart starts with the environment as it is
 * now, so `app` picks up a changed secret; everything else is the sandbox's own.
 */
export function withProjectEnv(sandbox: Sandbox, envOf: () => Promise<Record<string, string>>): Sandbox {
  const withEnv = async (env: Record<string, string> | undefined) => ({ ...(await envOf()), ...env });
  const inner = sandbox.processes;
  const processes: SandboxProcesses = {
    start: async (name, command, options = {}) => inner.start(name, command, { ...options, env: await withEnv(options.env) }),
    restart: async (name, options) => inner.restart(name, { env: await withEnv(options?.env) }),
    stop: (name) => inner.stop(name),
    list: () => inner.list(),
    logs: (name, since) => inner.logs(name, since),
    subscribe: (listener) => inner.subscribe(listener),
  };
  const wrapped: Partial<Sandbox> = {
    processes,
    run: async (command: string, options: RunOptions = {}) => sandbox.run(command, { ...options, env: await withEnv(options.env) }),
    openTerminal: async (options: TerminalOptions) => sandbox.openTerminal({ ...options, env: await withEnv(options.env) }),
  };
  // Everything else is the provider's sandbox itself (its id, files, kill, the local sandbox's host details and
  // database socket), read from it and with its methods bound to it, so its own code never sees the wrapper.
  return new Proxy(sandbox, {
    get(target, prop) {
      if (Object.hasOwn(wrapped, prop)) return wrapped[prop as keyof Sandbox];
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Restarts the project's `app` on this instance, with its new environment, when another part (here or on
 * another instance) says the environment changed. Returns the unsubscribe.
 */
export function restartAppOnEnvChange(deps: { events: EventBus; logger: Logger }, attached: (projectId: string) => Sandbox | null): () => void {
  return deps.events.subscribe((event) => {
    if (event.type !== "project.env.changed") return;
    const sandbox = attached(event.projectId);
    if (!sandbox) return; // not running here: the instance that runs it restarts it (or it starts with the new env)
    const restart = async () => {
      const app = (await sandbox.processes.list()).find((p) => p.name === APP_PROCESS);
      // One the user stopped stays stopped; a crashed one (perhaps for want of this very variable) starts again.
      if (app && app.status !== "exited") await sandbox.processes.restart(APP_PROCESS);
    };
    void restart().catch((error: unknown) =>
      deps.logger.warn("could not restart the app with its new environment", { projectId: event.projectId, error: String(error) }),
    );
  });
}
