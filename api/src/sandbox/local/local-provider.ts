/**
 * The local `SandboxProvider`: each sandbox is a bubblewrap process tree on this machine with its own uid,
 * namespaces (user, pid, mount, ipc, uts, network), cgroup limits, a filtered slirp4netns network and one
 * writable folder. Needs root; where isolation is impossible `create` throws `SandboxUnavailableError`
 * saying what is missing, and nothing ever runs unisolated.
 *
 * @example
 * const provider = createLocalProvider({ rootDir: "data/sandboxes", idleTimeoutMs: 15 * 60_000, logger });
 * const sandbox = await provider.create(projectId);
 * await sandbox.run("echo hi"); // { exitCode: 0, stdout: "hi\n", … }
 */
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../lib/logger.ts";
import { HostFullError, SandboxUnavailableError, type Sandbox, type SandboxProvider, type SharedTemplateCache } from "../types.ts";
import { localSupport, type Tools } from "./check.ts";
import { createLocalFiles } from "./files.ts";
import { createLayout, layoutFor, prepareRoot, removeLayout, sandboxArgv, TEMPLATE_CACHE_IN_SANDBOX, type SandboxPrograms } from "./layout.ts";
import { createLimits, DEFAULT_LIMITS, type Limits } from "./limits.ts";
import { describeHostLimits, totalMemoryMb } from "./host-limits.ts";
import { LocalSandbox } from "./local-sandbox.ts";
import { addNetns, removeNetns, startNetwork, type SandboxNetwork } from "./network.ts";
import { freeMb, prepareDiskTemplate, setVolumeReadOnly } from "./disk.ts";
import { newSandboxId } from "./sandbox-id.ts";
import { seccompProgram, seccompSupported } from "./seccomp.ts";
import { startSupervisor, type Supervisor } from "./supervisor-client.ts";
import { sweepStaleSandboxes, writeOwner } from "./sweep.ts";
import { claimUid, releaseUid } from "./uids.ts";

const SPARE_DELAY_MS = 50;
const DEFAULT_MAX_LIFETIME_MS = 12 * 3_600_000;
const DEFAULT_DISK_MB = 2048;
const DEFAULT_DISK_RESERVE_MB = 1024;
const FREE_SPACE_CHECK_MS = 5_000;
/** Processes (threads included) kept for the supervisor and its spawning when a command hits its limit. */
const SUPERVISOR_PROCS = 32;
/** Project ids template-cache.ts gives the sandboxes that fill the cache. */
const TEMPLATE_POPULATION = /^template-cache:/;

export type LocalProviderOptions = {
  /** Holds each sandbox's folders (`<rootDir>/<id>/project`, its package cache, its /etc files). */
  rootDir: string;
  /** A sandbox with no `run` for this long is stopped and reads as expired (preview requests do not count). */
  idleTimeoutMs: number;
  /** A sandbox is stopped this long after it was handed out, however busy (default 12 h; 0 = never). */
  maxLifetimeMs?: number;
  limits?: Partial<Limits>;
  logger: Logger;
  /** Root-only runtime state (slirp4netns sockets, uid claims). Default `/run/app-sandbox`. */
  stateDir?: string;
  /**
   * Sandboxes kept started and empty, so `create` hands one out at once (0 or 1; default 1). The first is
   * started by the first `create`, never before: a provider that is not used runs nothing.
   */
  spares?: number;
  /** Use cgroups (v2 where delegated, else v1 where writable) for limits (default true); false leaves only RLIMIT_NPROC. */
  cgroups?: boolean;
  /** A delegated cgroup v2 folder for the sandboxes' cgroups (SANDBOX_CGROUP); default `<own cgroup>/app-sandboxes`. */
  cgroupV2Dir?: string | null;
  /** Sandboxes this provider runs at once, spares aside (MAX_SANDBOXES_PER_HOST; default derived from memory, 0 = no cap). */
  maxSandboxes?: number;
  /**
   * Host folder of the template dependency cache (e.g. `<DATA_DIR>/template-cache`), bound READ-ONLY at
   * /opt/template-cache in every sandbox. Only the host writes it (template-cache.ts). Omit for none.
   */
  templateCacheDir?: string;
  /** Run sandboxes under the seccomp filter of seccomp.ts (default true; false only to measure its cost). */
  seccomp?: boolean;
  /** Each sandbox's own file system for its project and caches, in MB (default 2048; 0 = no quota). */
  diskMb?: number;
  /** Host disk space kept free under rootDir: below it no sandbox starts and volumes turn read-only (default 1024 MB). */
  diskReserveMb?: number;
  /** Free host space under rootDir in MB (default: statfs); tests stand in a full disk with it. */
  freeSpaceMb?: () => number;
};

export function createLocalProvider(options: LocalProviderOptions): SandboxProvider {
  const rootDir = path.resolve(options.rootDir);
  const templateCacheDir = options.templateCacheDir ? path.resolve(options.templateCacheDir) : undefined;
  const stateRoot = options.stateDir ?? "/run/app-sandbox";
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const { logger } = options;
  const sandboxes = new Map<string, LocalSandbox>();
  /**
   * Every sandbox this provider started and has not yet seen gone, spares and ones still being handed out
   * included, and the starts under way: shutdown ends them all, so none leaves its disk volume mounted.
   */
  const started = new Set<LocalSandbox>();
  const starting = new Set<Promise<unknown>>();
  let prepared: Promise<Prepared> | null = null;
  const diskMb = options.diskMb ?? DEFAULT_DISK_MB;
  const diskReserveMb = options.diskReserveMb ?? DEFAULT_DISK_RESERVE_MB;
  let guardTimer: ReturnType<typeof setInterval> | null = null;
  let readOnly = false;
  const freeSpace = options.freeSpaceMb ?? (() => freeMb(rootDir));
  let spare: Promise<LocalSandbox> | null = null;
  let closed = false;
  const hostLimits = describeHostLimits(options, limits);
  if (hostLimits.cgroups === "none") logger.warn("sandbox limits: no cgroups in force", { detail: hostLimits.detail });
  else logger.info(`sandbox limits: cgroup ${hostLimits.cgroups}`, { detail: hostLimits.detail });
  logger.info("sandbox admission: MAX_SANDBOXES_PER_HOST", {
    maxSandboxesPerHost: hostLimits.maxSandboxes,
    ...(options.maxSandboxes === undefined ? { derivedFrom: `${totalMemoryMb()} MB of memory at ${limits.memoryMb} MB per sandbox` } : {}),
  });
  /** Creates past the admission check that have not yet been handed out. */
  let admitting = 0;

  /** Refuses (SandboxUnavailableError) unless this machine can isolate; once per provider. */
  async function prepare(): Promise<Prepared> {
    const support = await localSupport();
    if (!support.ok) {
      throw new SandboxUnavailableError(`Local sandboxes are unavailable on this machine; nothing was run. Missing: ${support.missing.join("; ")}`);
    }
    await sweepStaleSandboxes(stateRoot, logger);
    const rootProblem = prepareRoot(rootDir);
    if (rootProblem) throw new SandboxUnavailableError(rootProblem);
    // Root-owned, traverse-only: a sandbox reaches an entry by its name through the read-only bind.
    const cacheProblem = templateCacheDir ? prepareRoot(templateCacheDir) : null;
    if (cacheProblem) throw new SandboxUnavailableError(cacheProblem);
    const source: SandboxPrograms = {
      supervisor: await Bun.file(new URL("./supervisor.js", import.meta.url)).text(),
      ptyHelper: await Bun.file(new URL("./pty-helper.py", import.meta.url)).text(),
    };
    let seccompFile: string | undefined;
    if (options.seccomp !== false) {
      if (!seccompSupported()) throw new SandboxUnavailableError(`Local sandboxes have no seccomp filter for ${process.arch}; nothing was run.`);
      seccompFile = path.join(stateRoot, "seccomp.bpf");
      fs.mkdirSync(stateRoot, { recursive: true, mode: 0o700 });
      fs.writeFileSync(seccompFile, seccompProgram(), { mode: 0o600 });
    }
    let diskTemplate: string | undefined;
    if (diskMb > 0) {
      try {
        diskTemplate = prepareDiskTemplate(rootDir, diskMb);
      } catch (err) {
        throw new SandboxUnavailableError(`Cannot make the sandboxes' disk image (${String(err)}); set SANDBOX_DISK_MB=0 to run without a disk quota.`);
      }
    }
    guardTimer ??= setInterval(guardFreeSpace, FREE_SPACE_CHECK_MS);
    guardTimer.unref?.();
    return { tools: support.tools, source, seccompFile, diskTemplate };
  }

  type Prepared = { tools: Tools; source: SandboxPrograms; seccompFile?: string; diskTemplate?: string };

  /** Below the reserve, every volume turns read-only (and back once space returns). */
  function guardFreeSpace() {
    let low: boolean;
    try {
      low = freeSpace() < diskReserveMb;
    } catch {
      return;
    }
    if (low === readOnly) return;
    readOnly = low;
    if (low) logger.warn("host disk nearly full: sandbox volumes are read-only until space is freed", { rootDir, reserveMb: diskReserveMb });
    else logger.info("host disk has room again: sandbox volumes are writable", { rootDir });
    for (const s of sandboxes.values()) {
      try {
        setVolumeReadOnly(s.host.baseDir, low);
      } catch (err) {
        logger.error("could not change a sandbox volume", { sandboxId: s.id, error: String(err) });
      }
    }
  }

  function start(ready: Prepared): Promise<LocalSandbox> {
    // Nothing starts once shutdown has begun: it could not wait for what it has not seen.
    if (closed) return Promise.reject(new Error("the sandbox provider is shut down"));
    const run = startSandbox(ready);
    starting.add(run);
    void run.then(
      () => starting.delete(run),
      () => starting.delete(run),
    );
    return run;
  }

  async function startSandbox({ tools, source, seccompFile, diskTemplate }: Prepared): Promise<LocalSandbox> {
    const id = newSandboxId();
    const uid = claimUid(stateRoot, id);
    const layout = layoutFor(rootDir, stateRoot, id, uid);
    const sandboxLimits = createLimits(id, limits, logger, { prlimit: tools.prlimit, useCgroups: options.cgroups, v2Dir: options.cgroupV2Dir });
    const commandProcs = Math.max(8, limits.pids - SUPERVISOR_PROCS);
    let supervisor: Supervisor | null = null;
    let network: SandboxNetwork | null = null;
    let sandbox: LocalSandbox | null = null;
    let netnsAdded = false;
    try {
      createLayout(layout, source, diskTemplate);
      writeOwner(layout, Object.values(sandboxLimits.cgroups));
      await addNetns(layout.netns);
      netnsAdded = true;
      // The supervisor starts while the network comes up: until slirp4netns attaches there is no route
      // out at all, and commands are only sent once both are ready.
      const onExit = () => void sandbox?.kill();
      supervisor = startSupervisor(sandboxLimits.wrap(sandboxArgv(layout, tools, { templateCacheDir, seccompFile, commandProcs })), { logger, onExit });
      const [net, ready] = await Promise.allSettled([
        startNetwork({ name: layout.netns, apiSocket: layout.apiSocket, logger, onUnexpectedExit: onExit }),
        supervisor.ready,
      ]);
      if (net.status === "fulfilled") network = net.value;
      if (net.status === "rejected") throw net.reason;
      if (ready.status === "rejected") throw ready.reason;
      const files = createLocalFiles(layout.projectDir, { uid, gid: uid });
      sandbox = new LocalSandbox({
        layout,
        stateRoot,
        supervisor,
        network: net.value,
        limits: sandboxLimits,
        files,
        idleTimeoutMs: options.idleTimeoutMs,
        commandProcs,
        maxLifetimeMs: options.maxLifetimeMs ?? DEFAULT_MAX_LIFETIME_MS,
        logger,
        onGone: (gone) => {
          sandboxes.delete(gone);
          started.delete(sandbox!);
        },
      });
      started.add(sandbox);
      return sandbox;
    } catch (err) {
      supervisor?.kill();
      await supervisor?.exited;
      await network?.destroy();
      if (netnsAdded && !network) await removeNetns(layout.netns);
      await sandboxLimits.destroy();
      removeLayout(layout);
      releaseUid(stateRoot, uid);
      throw new Error(`could not start a sandbox: ${String(err)}`, { cause: err });
    }
  }

  /** A started spare, if one is ready or on its way and still healthy. */
  async function takeSpare(): Promise<LocalSandbox | null> {
    const pending = spare;
    spare = null;
    const sandbox = await pending?.catch(() => null);
    if (sandbox?.gone) {
      await sandbox.kill();
      return null;
    }
    return sandbox ?? null;
  }

  const running = () => [...sandboxes.values()].filter((s) => !s.gone).length + admitting;

  function replenish(ready: Prepared) {
    if (closed || (options.spares ?? 1) < 1 || spare) return;
    // A full host keeps no spare either: its memory is the budget's.
    if (hostLimits.maxSandboxes > 0 && running() >= hostLimits.maxSandboxes) return;
    spare = (async () => {
      // Not in the way of the sandbox just handed out, whose first command is likely on its way.
      await Bun.sleep(SPARE_DELAY_MS);
      if (closed) throw new Error("the sandbox provider is shut down");
      const sandbox = await start(ready);
      try {
        await sandbox.run("true"); // the supervisor's first spawn is its slowest: take it here
      } catch (err) {
        await sandbox.kill(); // a spare nobody will take must not keep its processes and volume
        throw err;
      }
      return sandbox;
    })();
    spare.catch((err: unknown) => {
      if (!closed) logger.warn("could not start a spare sandbox", { error: String(err) });
    });
  }

  async function createAdmitted(projectId: string): Promise<LocalSandbox> {
    prepared ??= prepare();
    prepared.catch(() => (prepared = null)); // a fixed machine is noticed on the next try
    const ready = await prepared;
    const free = freeSpace();
    if (free < diskReserveMb) {
      throw new SandboxUnavailableError(
        `The server's disk is nearly full (${Math.round(free)} MB free; ${diskReserveMb} MB are kept free): no new sandbox starts until space is freed.`,
      );
    }
    // The template cache's own sandboxes install the repository's templates and hand node_modules over by
    // rename (template-cache.ts), which cannot cross into another file system: they go without the volume.
    const sandbox = TEMPLATE_POPULATION.test(projectId) ? await start({ ...ready, diskTemplate: undefined }) : ((await takeSpare()) ?? (await start(ready)));
    replenish(ready);
    if (closed) {
      await sandbox.kill();
      throw new Error("the sandbox provider is shut down");
    }
    sandboxes.set(sandbox.id, sandbox);
    sandbox.activate(); // the idle clock starts now, not when the spare was made
    logger.info("sandbox started", { sandboxId: sandbox.id, projectId, uid: sandbox.host.uid });
    return sandbox;
  }

  const templateCache: SharedTemplateCache | null = templateCacheDir
    ? {
        hostDir: templateCacheDir,
        sandboxDir: TEMPLATE_CACHE_IN_SANDBOX,
        hostProjectDir: (sandbox) => {
          const own = sandboxes.get(sandbox.id);
          return own && own === sandbox && !own.gone ? own.host.projectDir : null;
        },
      }
    : null;

  return {
    kind: "local",
    templateCache,
    hostLimits,
    async create(projectId) {
      if (closed) throw new Error("the sandbox provider is shut down");
      const max = hostLimits.maxSandboxes;
      if (max > 0 && running() >= max) {
        throw new HostFullError(
          `This server is running as many sandboxes as it may (${max}, MAX_SANDBOXES_PER_HOST); try again in a few minutes, when an idle one has stopped.`,
        );
      }
      admitting++;
      try {
        return await createAdmitted(projectId);
      } finally {
        admitting--;
      }
    },
    async connect(sandboxId) {
      const sandbox = sandboxes.get(sandboxId);
      if (!sandbox) return null;
      if (sandbox.gone) {
        await sandbox.kill();
        return null;
      }
      return sandbox;
    },
    /**
     * Stops every sandbox this provider started (handed out, spare, or still starting) and waits until each
     * is torn down: processes, network, cgroups, its disk volume unmounted and its folders removed.
     */
    async shutdown() {
      closed = true;
      if (guardTimer) clearInterval(guardTimer);
      spare = null;
      // A start under way mounts a volume and forks a supervisor: let it finish, then end it with the rest.
      await Promise.allSettled([...starting]);
      await Promise.all([...started].map((s) => s.kill()));
    },
  };
}
