/**
 * A project's sandbox over its life: found or created on first need, reconnected after a restart, recreated
 * on request, recorded on the project with its preview URL, and stopped wherever it runs when its project is
 * deleted, a recreate replaces it, or its owner's cap needs room (a `sandbox.stop` bus event).
 * Every start (a creation, a reconnect, a recreate) goes through the start claim of slots.ts, which keeps
 * the owner within MAX_SANDBOXES_PER_USER and lets one start of a project run at a time: concurrent
 * starts collapse into one, on this instance by sharing a promise, across instances by the claim (the
 * others wait, then use the sandbox it made). Filling and watching a sandbox is the sync's job (sync.ts);
 * this file decides which sandbox is the project's.
 *
 * Each sandbox it creates (a first start, one after the old expired, a recreate) counts toward its owner's
 * sandbox-start rate limit, whichever route or run asked for it; using or reconnecting a running one is free.
 *
 * @example
 * const lifecycle = createSandboxLifecycle({ ...ctx, provider, config }, sync, dependencies, createProjectEnv(ctx));
 * const sandbox = await lifecycle.ensure(access);
 */
import * as fileRows from "../../db/files";
import { findSandboxRecord, getPreviewPort, setProjectSandbox } from "../../db/project-sandbox";
import type { Config } from "../../lib/config";
import type { Drain } from "../../lib/drain";
import { AppError, notFound } from "../../lib/errors";
import { APP_PROCESS } from "@shared/schemas/processes";
import { HostFullError, type Sandbox, type SandboxProvider } from "../../sandbox/types";
import type { StartOptions } from "./types";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { getProject } from "../projects";
import { createRateLimiter } from "../rate-limits";
import { installDependencies, templateWithPackageJson, type DependencyDeps } from "./dependencies";
import { previewUrlFor } from "./preview-url";
import { withProjectEnv, type ProjectEnv } from "./project-env";
import type { SandboxSyncService } from "./sync";
import { publishProcessEvents } from "./process-events";
import { createSandboxSlots } from "./slots";
import { startWorkflow } from "./workflow";
import type { RecreateResult } from "@shared/schemas/sandbox";

/** What a recreated sandbox runs when its package.json is not exactly a template's. */
const RECREATE_INSTALL = "npm install --no-audit --no-fund --loglevel=error";

/** What POST /api/sandbox/{projectId}/recreate answers: the shared response schema's type. */
export type { RecreateResult } from "@shared/schemas/sandbox";

export type LifecycleDeps = ServiceContext & {
  provider: SandboxProvider;
  config: Config;
  /** How long a running sandbox's lease lasts unrenewed (tests shorten it; 90 s otherwise). */
  sandboxLeaseMs?: number;
  /** When it is draining (SIGTERM), this instance makes no new sandbox (a running one is still used). */
  drain?: Drain;
};

export type SandboxLifecycle = ReturnType<typeof createSandboxLifecycle>;

export function createSandboxLifecycle(ctx: LifecycleDeps, sync: SandboxSyncService, dependencies: DependencyDeps, env: ProjectEnv) {
  /**
   * The sandbox as the project's: every process it starts gets the project's environment (project-env.ts).
   * One wrapper per provider sandbox, so a sandbox reconnected here again is still the same object (its
   * process events are published once).
   */
  const wrappers = new WeakMap<Sandbox, Sandbox>();
  const asProjects = (projectId: string, sandbox: Sandbox): Sandbox => {
    let own = wrappers.get(sandbox);
    if (own) return own;
    // A local sandbox's 127.0.0.1:5432 leads to the host through its socket: serve it before any process asks.
    if (sandbox.databaseSocket && ctx.appDatabases) {
      ctx.appDatabases
        .serveSandbox(projectId, sandbox.databaseSocket)
        .catch((error) => ctx.logger.warn("the sandbox's database socket could not be served", { projectId, error: String(error) }));
    }
    wrappers.set(sandbox, (own = withProjectEnv(sandbox, () => env.forProject(projectId))));
    return own;
  };
  const inflight = new Map<string, Promise<Sandbox>>();
  const recreating = new Map<string, Promise<RecreateResult>>();
  const slots = createSandboxSlots(ctx);
  const limiter = createRateLimiter(ctx);
  /** A new sandbox is about to be made for the owner: a 429 past their sandbox starts, before anything is stopped or made. */
  const countStart = (ownerId: string) => limiter.hit("sandbox", ownerId);

  /** Kills the sandbox if it runs on this instance (attached to its project or not); never rejects. */
  async function killHere(projectId: string, sandboxId: string): Promise<void> {
    const attached = sync.get(projectId);
    if (attached?.sandbox.id === sandboxId) sync.detach(projectId);
    const sandbox = attached?.sandbox.id === sandboxId ? attached.sandbox : await ctx.provider.connect(sandboxId).catch(() => null);
    if (!sandbox) return; // not here: the instance that runs it stops it (the bus), or it is gone already
    await sandbox.kill().catch((error) => ctx.logger.warn("could not stop a sandbox", { sandboxId, error: String(error) }));
    await slots.stopped(projectId, sandboxId);
  }

  // The leases of the sandboxes attached here: renewed while they live; one found stopped (idle, its
  // lifetime, a crash) is detached and stops counting toward its owner's sandboxes at once.
  const heartbeat = setInterval(() => void renewLeases(), slots.leaseMs / 3);
  heartbeat.unref?.();
  async function renewLeases(): Promise<void> {
    const alive: { projectId: string; sandboxId: string }[] = [];
    for (const a of sync.all()) {
      if (await a.sandbox.isAlive().catch(() => false)) alive.push({ projectId: a.projectId, sandboxId: a.sandbox.id });
      else {
        if (sync.get(a.projectId) === a) sync.detach(a.projectId);
        await slots.stopped(a.projectId, a.sandbox.id);
      }
    }
    await slots.renew(alive);
  }

  // Another instance deleted a project or recreated its sandbox: stop the old one if it runs here. E2B
  // sandboxes were already killed by the instance that published the event (they are reachable from all).
  const unsubscribe = ctx.events.subscribe((event) => {
    if (event.type !== "sandbox.stop" || ctx.provider.kind !== "local") return;
    void killHere(event.projectId, event.sandboxId);
  });
  /** Sandboxes whose process events this instance publishes (each once, for as long as it lives). */
  const published = new WeakSet<Sandbox>();

  async function attach(access: ProjectAccess, sandbox: Sandbox): Promise<number> {
    const { ownerId, projectId } = access;
    if (!published.has(sandbox)) {
      published.add(sandbox);
      publishProcessEvents(ctx, ownerId, projectId, sandbox);
    }
    const { filesSynced } = await sync.attach(access, sandbox);
    const port = await getPreviewPort(ctx.sql, projectId);
    if (!(await setProjectSandbox(ctx.sql, projectId, sandbox.id, previewUrlFor(ctx.config.preview, sandbox, port)))) {
      // The project was deleted while its sandbox started: nobody may keep it.
      sync.detach(projectId);
      await sandbox.kill().catch(() => {});
      throw notFound("Project");
    }
    await slots.running(projectId, sandbox.id);
    return filesSynced;
  }

  /**
   * Holds the project's start claim while `work` runs (waiting while a start of it runs elsewhere); a 429
   * when the owner's sandboxes are all busy. `work` calls `makeRoom` once the start is allowed (past the
   * sandbox-start limit) and before its sandbox runs: it stops the idle sandboxes of the owner that the
   * claim chose to make room. A start that ends before making room (refused, or its project gone) stops
   * none, and they count again at once.
   */
  async function withStartClaim<T>(
    ownerId: string,
    projectId: string,
    work: (makeRoom: () => Promise<void>) => Promise<T>,
    onHeld?: () => Promise<T>,
  ): Promise<T> {
    for (;;) {
      const slot = await slots.claim(ownerId, projectId);
      if (!slot) {
        if (onHeld) return onHeld();
        await slots.waitWhileHeld(projectId);
        continue; // then claim it: the sandbox the other start made is reused, not made again
      }
      let roomMade = false;
      const makeRoom = async () => {
        if (roomMade) return;
        roomMade = true;
        for (const room of slot.evicted) {
          ctx.logger.info("stopping the owner's least recently used idle sandbox to make room", { ...room, forProjectId: projectId });
          await stop(ownerId, room.projectId, room.sandboxId);
        }
      };
      try {
        return await work(makeRoom);
      } finally {
        // The claim took their leases; they still run, so they count again (their order of use unchanged).
        if (!roomMade && slot.evicted.length) await slots.renew(slot.evicted);
        await slot.release();
      }
    }
  }

  async function createFresh(access: ProjectAccess): Promise<{ sandbox: Sandbox; filesSynced: number }> {
    const { projectId } = access;
    ctx.drain?.refuseNew("sandbox");
    let sandbox: Sandbox;
    try {
      sandbox = asProjects(projectId, await ctx.provider.create(projectId));
    } catch (error) {
      // A full host says so as it is, with a wait: the start may succeed once an idle sandbox has stopped.
      if (error instanceof HostFullError) throw new AppError(503, "dependency_unavailable", error.message, { cause: error, headers: { "Retry-After": "60" } });
      throw new AppError(503, "dependency_unavailable", `Could not start a sandbox: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    return { sandbox, filesSynced: await attach(access, sandbox) };
  }

  /**
   * The project's running sandbox. Created on first need (or when the old one expired), filled with every
   * stored file, watched so changes made inside flow back to storage, and recorded on the project.
   */
  async function ensure(access: ProjectAccess, options: StartOptions = {}): Promise<Sandbox> {
    const { ownerId, projectId } = access;
    // A recreate under way makes the project's next sandbox: wait for it rather than start a second one.
    await recreating.get(projectId)?.catch(() => {});
    const current = sync.get(projectId);
    if (current && (await current.sandbox.isAlive())) {
      slots.used(projectId);
      return current.sandbox;
    }
    sync.detach(projectId);
    const running = inflight.get(projectId);
    if (running) return running;
    const work = withStartClaim(ownerId, projectId, (makeRoom) => connectOrCreate(access, options, makeRoom));
    inflight.set(projectId, work);
    try {
      return await work;
    } finally {
      inflight.delete(projectId);
    }
  }

  /** Under the start claim: the project's recorded sandbox if it still runs (made by another start, or before a restart), else a new one. */
  async function connectOrCreate(access: ProjectAccess, options: StartOptions, makeRoom: () => Promise<void>): Promise<Sandbox> {
    const { ownerId, projectId } = access;
    // Read again under the claim (another start may have recorded a sandbox); access was checked by the caller.
    const project = await findSandboxRecord(ctx.sql, projectId);
    if (!project) throw notFound("Project");
    if (project.sandboxId) {
      const found = await ctx.provider.connect(project.sandboxId).catch(() => null);
      const existing = found && asProjects(projectId, found);
      if (existing && (await existing.isAlive().catch(() => false))) {
        // Free of the start limit, but it counts toward the owner's sandboxes again: the room is still made.
        await makeRoom();
        await attach(access, existing);
        // Reconnected from an instance that never ran it here (E2B): the app is started again.
        const hasApp = (await existing.processes.list()).some((p) => p.name === APP_PROCESS);
        if (project.workflowCommand && !hasApp) void startApp(projectId, existing, project.workflowCommand, false);
        return existing;
      }
    }
    if (!options.startCounted) await countStart(ownerId);
    await makeRoom();
    // Recorded but not reachable from here: if it still runs on another instance, it stops there (it would
    // otherwise run on, counted by nobody).
    if (project.sandboxId) await stop(ownerId, projectId, project.sandboxId);
    const { sandbox } = await createFresh(access);
    // The old sandbox expired or stopped: its app comes back in the new one, dependencies first. In the
    // background, so whatever asked for the sandbox is not held up by an install.
    if (project.sandboxId && project.workflowCommand) void startApp(projectId, sandbox, project.workflowCommand, true);
    return sandbox;
  }

  /**
   * Stops the project's sandbox wherever it runs: here at once (awaited), on other instances through the
   * bus. For a deleted project (its preview answers 404 from now on), a replaced sandbox, or one stopped to
   * make room within its owner's cap.
   */
  async function stop(ownerId: string, projectId: string, sandboxId: string | null): Promise<void> {
    if (!sandboxId) return;
    await killHere(projectId, sandboxId);
    await ctx.events
      .publish({ type: "sandbox.stop", projectId, sandboxId, ownerId, origin: "api" })
      .catch((error) => ctx.logger.warn("sandbox stop not published", { sandboxId, error: String(error) }));
  }

  /**
   * Kills the current sandbox (if any), makes a new one with every file, installs and starts the workflow.
   * Callers arriving while a recreate of the project runs (here or on another instance) get its result.
   */
  async function recreate(access: ProjectAccess): Promise<RecreateResult> {
    const { projectId } = access;
    const running = recreating.get(projectId);
    if (running) return running;
    const work = recreateOnce(access);
    recreating.set(projectId, work);
    try {
      return await work;
    } finally {
      recreating.delete(projectId);
    }
  }

  async function recreateOnce(access: ProjectAccess): Promise<RecreateResult> {
    return withStartClaim(
      access.ownerId,
      access.projectId,
      (makeRoom) => replaceSandbox(access, makeRoom),
      () => awaitOtherRecreate(access),
    );
  }

  /** Another start of the project holds the claim: wait until it lets go, then answer with the sandbox it made. */
  async function awaitOtherRecreate(access: ProjectAccess): Promise<RecreateResult> {
    const { projectId } = access;
    await slots.waitWhileHeld(projectId);
    const project = await getProject(ctx, access);
    if (!project.sandboxUrl) throw new AppError(503, "dependency_unavailable", "The sandbox recreate running elsewhere did not finish; try again.");
    const { files } = await fileRows.projectUsage(ctx.sql, projectId);
    return { url: project.sandboxUrl, filesSynced: files, workflowCommand: project.workflowCommand };
  }

  async function replaceSandbox(access: ProjectAccess, makeRoom: () => Promise<void>): Promise<RecreateResult> {
    const { ownerId, projectId } = access;
    const project = await getProject(ctx, access);
    await countStart(ownerId); // before any sandbox is stopped: a refused recreate leaves the old one and the owner's others running
    await makeRoom();
    const old = sync.get(projectId)?.sandbox ?? (project.sandboxId ? await ctx.provider.connect(project.sandboxId).catch(() => null) : null);
    sync.detach(projectId);
    await old?.kill().catch(() => {});
    // The recorded sandbox may run on another instance (which this one cannot reach): it stops it there.
    if (project.sandboxId && project.sandboxId !== old?.id) await stop(ownerId, projectId, project.sandboxId);
    const { sandbox, filesSynced } = await createFresh(access);
    if (project.workflowCommand) await startApp(projectId, sandbox, project.workflowCommand, true);
    const port = await getPreviewPort(ctx.sql, projectId);
    return { url: previewUrlFor(ctx.config.preview, sandbox, port), filesSynced, workflowCommand: project.workflowCommand };
  }

  /**
   * Starts the project's `app` from its workflow command; with `install`, first installs dependencies (a new
   * sandbox has no node_modules: they never sync), from the template cache when package.json is exactly a
   * template's. Never rejects: a failure is logged, and the app's own status shows what happened.
   */
  async function startApp(projectId: string, sandbox: Sandbox, command: string, install: boolean): Promise<void> {
    try {
      const packageJson = install ? await fileRows.findFileByPath(ctx.sql, projectId, "package.json") : null;
      const bytes = packageJson && (await ctx.store.get(packageJson.storageKey));
      if (bytes) {
        const template = await templateWithPackageJson(dependencies.templateCache, bytes);
        const installed = await installDependencies(dependencies, sandbox, template, RECREATE_INSTALL);
        if (installed.exitCode !== 0) ctx.logger.warn("installing dependencies for the app failed", { projectId, output: installed.output });
      }
      await startWorkflow(sandbox, command);
    } catch (error) {
      ctx.logger.warn("could not start the app", { projectId, error: String(error) });
    }
  }

  /** Whether the project's recorded sandbox is still running. */
  async function validate(access: ProjectAccess): Promise<boolean> {
    const { projectId } = access;
    const project = await getProject(ctx, access);
    if (!project.sandboxId) return false;
    const a = sync.get(projectId);
    if (a && a.sandbox.id === project.sandboxId) return a.sandbox.isAlive();
    const sandbox = await ctx.provider.connect(project.sandboxId).catch(() => null);
    return sandbox ? sandbox.isAlive() : false;
  }

  function close(): void {
    unsubscribe();
    clearInterval(heartbeat);
  }

  return { ensure, recreate, validate, stop, close };
}
