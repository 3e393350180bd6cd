/**
 * The server deployments this instance runs (issue 22, items 1 and 3): one sandbox each, started by a publish
 * (`launch`, which goes live only once the server answers) or by a visitor's request (`target`, which wakes a
 * sleeping one and holds the request until it answers, up to PUBLISH_START_TIMEOUT_S). A server with no request
 * for SITE_IDLE_S is put to sleep (its process stopped; its sandbox kept until the sandbox's own idle stop, so
 * a wake is a process start, or, when that sandbox is gone, a new one from the deployment's files: its kept
 * build when it has one (kept-build.ts), so only the dependencies are installed again, never the build).
 * At most MAX_LIVE_SERVERS_PER_USER run per owner: starting another puts the least recently used to sleep.
 * A crash is restarted by the sandbox's process table (back-off, at most 5 a minute); a crash loop leaves it
 * `crashed`, and visitors get a plain 502 until a minute has passed and a request tries again.
 *
 * @example
 * const runtime = createServerRuntime(deps);
 * await runtime.launch(spec, (text) => buildLog.write(text)); // throws StartError with the server's last lines
 * const { hostname, port } = await runtime.target(spec);      // wakes it when asleep
 */
import type { EventBus } from "../../events/types";
import type { Sandbox } from "../../sandbox/types";
import { answering, provision, type Provisioned, SERVER_PORT, SERVER_PROCESS, startServer, StartError, type LaunchDeps, type ServerSpec } from "./launch";
import { createLogRing, type LogRing } from "./log-ring";

export { StartError, type ServerSpec } from "./launch";

/** The app is not running (a crash loop): visitors get a 502 saying so. */
export class NotRunningError extends Error {}

const TAIL_LINES = 30;
/** A crashed server is tried again by a request after this long. */
const CRASH_RETRY_MS = 60_000;
/** A running server's sandbox is told it is in use at most this often (requests do not count as use there). */
const KEEP_ALIVE_MS = 60_000;

type Target = { hostname: string; port: number };
type State = "starting" | "running" | "sleeping" | "crashed";

type Entry = {
  spec: ServerSpec;
  sandbox: Sandbox | null;
  state: State;
  target: Target | null;
  lastUsed: number;
  crashedAt: number;
  keptAliveAt: number;
  starting: Promise<Target> | null;
  /** What the last `npm run build` in this entry's sandbox printed (null: the sandbox did not build). */
  buildOutput: string | null;
  unsubscribe: (() => void) | null;
  log: LogRing;
};

export type ServerRuntimeDeps = LaunchDeps & { events: EventBus; startTimeoutMs: number; idleMs: number; maxPerUser: number };

export type ServerRuntime = ReturnType<typeof createServerRuntime>;

export function createServerRuntime(deps: ServerRuntimeDeps) {
  const entries = new Map<string, Entry>();

  const entryFor = (spec: ServerSpec): Entry => {
    let e = entries.get(spec.deploymentId);
    if (!e) {
      e = {
        spec,
        sandbox: null,
        state: "sleeping",
        target: null,
        lastUsed: Date.now(),
        crashedAt: 0,
        keptAliveAt: Date.now(),
        starting: null,
        buildOutput: null,
        unsubscribe: null,
        log: createLogRing(deps.events, { ownerId: spec.ownerId, projectId: spec.projectId, deploymentId: spec.deploymentId }),
      };
      entries.set(spec.deploymentId, e);
    } else if (!e.starting) {
      // The live row's files: after the publish they carry the kept build, which a new sandbox starts from.
      e.spec = spec;
    }
    return e;
  };

  /** The server's output and crashes, into the deployment's log. */
  const watch = (e: Entry, sandbox: Sandbox) => {
    e.unsubscribe?.();
    e.unsubscribe = sandbox.processes.subscribe((event) => {
      if (event.type === "output" && event.name === SERVER_PROCESS) e.log.add(event.lines.map((l) => `${l.text}\n`).join(""));
      if (event.type === "status" && event.process.name === SERVER_PROCESS && event.process.status === "crashed" && e.state === "running") {
        e.state = "crashed";
        e.crashedAt = Date.now();
        e.log.add("[the server keeps crashing: visitors are shown that the app is not running]\n");
      }
    });
  };

  /** Makes room for one more running server of this owner by putting the least recently used to sleep. */
  const makeRoom = async (ownerId: string, except: string) => {
    const running = [...entries.values()]
      .filter((x) => x.spec.ownerId === ownerId && x.spec.deploymentId !== except && (x.state === "running" || x.state === "starting"))
      .sort((a, b) => a.lastUsed - b.lastUsed);
    while (running.length >= deps.maxPerUser) {
      const lru = running.shift()!;
      if (lru.state === "starting") continue;
      lru.log.add("[asleep: another server of the same owner started, past MAX_LIVE_SERVERS_PER_USER]\n");
      await sleep(lru);
    }
  };

  const sleep = async (e: Entry) => {
    if (e.state !== "running" && e.state !== "crashed") return;
    e.state = "sleeping";
    e.target = null;
    await e.sandbox?.processes.stop(SERVER_PROCESS).catch(() => null);
  };

  const tail = (e: Entry) => e.log.lines().slice(-TAIL_LINES).join("\n");

  /** Starts the entry's server (a new sandbox when it has none alive) and waits until it answers. */
  const start = (e: Entry, log: (text: string) => void): Promise<Target> => {
    e.starting ??= (async () => {
      e.state = "starting";
      e.lastUsed = Date.now();
      try {
        await makeRoom(e.spec.ownerId, e.spec.deploymentId);
        if (!e.sandbox || !(await e.sandbox.isAlive())) {
          e.sandbox = null;
          const provisioned = await provision(deps, e.spec, log);
          e.sandbox = provisioned.sandbox;
          e.buildOutput = provisioned.buildOutput;
          watch(e, e.sandbox);
        }
        log("$ npm start\n");
        await startServer(deps, e.sandbox, e.spec);
        const target = await answering(e.sandbox, deps.startTimeoutMs);
        e.state = "running";
        e.target = target;
        e.keptAliveAt = Date.now();
        log(`The server answers on PORT ${SERVER_PORT}.\n`);
        return target;
      } catch (error) {
        e.state = "sleeping";
        await e.sandbox?.processes.stop(SERVER_PROCESS).catch(() => null);
        throw error;
      } finally {
        e.starting = null;
      }
    })();
    return e.starting;
  };

  const kill = async (e: Entry) => {
    entries.delete(e.spec.deploymentId);
    e.unsubscribe?.();
    await e.sandbox?.kill().catch(() => {});
  };

  // Servers with no request for SITE_IDLE_S go to sleep.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const e of entries.values()) {
        if (e.state === "running" && now - e.lastUsed >= deps.idleMs) {
          e.log.add(`[asleep: no request for ${Math.round(deps.idleMs / 1000)} s (SITE_IDLE_S)]\n`);
          void sleep(e);
        }
      }
    },
    Math.max(250, Math.min(deps.idleMs / 4, 30_000)),
  );
  sweep.unref?.();

  return {
    /**
     * A publish: builds and starts the deployment's server, resolving once it answers with its sandbox and what
     * its build printed (the publish reads the build's output folder from both). On failure its sandbox is
     * gone and the StartError carries the server's last log lines.
     */
    async launch(spec: ServerSpec, log: (text: string) => void): Promise<Provisioned> {
      const e = entryFor(spec);
      try {
        await start(e, (text) => (e.log.add(text, false), log(text)));
        return { sandbox: e.sandbox!, buildOutput: e.buildOutput };
      } catch (error) {
        const lines = tail(e);
        await kill(e);
        const message = error instanceof Error ? error.message : String(error);
        throw new StartError(lines ? `${message}\nLast lines of its log:\n${lines}` : message);
      }
    },

    /** Where a visitor's request goes: the running server, or one woken for it. NotRunningError in a crash loop. */
    async target(spec: ServerSpec): Promise<Target> {
      const e = entryFor(spec);
      e.lastUsed = Date.now();
      if (e.state === "crashed") {
        if (Date.now() - e.crashedAt < CRASH_RETRY_MS) throw new NotRunningError("The app keeps crashing.");
        e.state = "sleeping";
        await e.sandbox?.processes.stop(SERVER_PROCESS).catch(() => null);
      }
      if (e.state === "running" && e.target && e.sandbox && (await e.sandbox.isAlive())) {
        if (Date.now() - e.keptAliveAt > KEEP_ALIVE_MS) {
          e.keptAliveAt = Date.now();
          void e.sandbox.run("true", { timeoutMs: 5_000 }).catch(() => {});
        }
        return e.target;
      }
      if (e.state === "running") {
        e.state = "sleeping";
        e.log.add("[its sandbox stopped; starting it again]\n");
      }
      if (!e.starting) e.log.add("[waking up for a request]\n");
      try {
        return await start(e, (text) => e.log.add(text));
      } catch (error) {
        e.log.add(`[did not start: ${error instanceof Error ? error.message : String(error)}]\n`);
        throw new NotRunningError(error instanceof Error ? error.message : String(error));
      }
    },

    /** Stops this deployment's server and drops its sandbox (a publish that failed after its server started). */
    async discard(deploymentId: string): Promise<void> {
      const e = entries.get(deploymentId);
      if (e) await kill(e);
    },

    /** Stops every server of the project but `keep` (a new deployment went live, or an older one was activated). */
    async retire(projectId: string, keep: string | null): Promise<void> {
      await Promise.all([...entries.values()].filter((e) => e.spec.projectId === projectId && e.spec.deploymentId !== keep).map(kill));
    },

    /** The deployment's last 1,000 log lines kept here, or null when this instance has not run it. */
    logs: (deploymentId: string): string[] | null => entries.get(deploymentId)?.log.lines() ?? null,

    /** Tests and benchmarks: the deployment's state here. */
    state: (deploymentId: string): State | null => entries.get(deploymentId)?.state ?? null,

    /** Tests and benchmarks: its sandbox stops now, as the sandbox's own idle stop would; the next request starts a new one. */
    killSandboxNow: async (deploymentId: string) => {
      await entries.get(deploymentId)?.sandbox?.kill();
    },

    /** Tests: puts it to sleep now, as the idle sweep would. */
    sleepNow: async (deploymentId: string) => {
      const e = entries.get(deploymentId);
      if (e) await sleep(e);
    },

    async close(): Promise<void> {
      clearInterval(sweep);
      await Promise.all([...entries.values()].map(kill));
    },
  };
}
