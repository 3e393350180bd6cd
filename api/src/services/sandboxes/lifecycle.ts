/**
 * A project's sandbox over its life: found or created on first need (one creation at a time per project),
 * reconnected after a restart, recreated on request, and recorded on the project with its preview URL.
 * Filling and watching a sandbox is the sync's job (sync.ts); this file decides which sandbox is the project's.
 *
 * @example
 * const lifecycle = createSandboxLifecycle({ ...ctx, provider, config }, sync, dependencies);
 * const sandbox = await lifecycle.ensure(ownerId, projectId);
 */
import * as fileRows from "../../db/files";
import { getPreviewPort, setProjectSandbox } from "../../db/project-sandbox";
import type { Config } from "../../lib/config";
import { AppError } from "../../lib/errors";
import type { Sandbox, SandboxProvider } from "../../sandbox/types";
import type { ServiceContext } from "../context";
import { getOwnedProject } from "../projects";
import { installDependencies, templateWithPackageJson, type DependencyDeps } from "./dependencies";
import { previewUrlFor } from "./preview-url";
import type { SandboxSyncService } from "./sync";
import { startWorkflow } from "./workflow";

/** What a recreated sandbox runs when its package.json is not exactly a template's. */
const RECREATE_INSTALL = "npm install --no-audit --no-fund --loglevel=error";

export type LifecycleDeps = ServiceContext & { provider: SandboxProvider; config: Config };

export type SandboxLifecycle = ReturnType<typeof createSandboxLifecycle>;

export function createSandboxLifecycle(ctx: LifecycleDeps, sync: SandboxSyncService, dependencies: DependencyDeps) {
  const inflight = new Map<string, Promise<Sandbox>>();

  async function attach(ownerId: string, projectId: string, sandbox: Sandbox): Promise<number> {
    const { filesSynced } = await sync.attach(ownerId, projectId, sandbox);
    const port = await getPreviewPort(ctx.sql, projectId);
    await setProjectSandbox(ctx.sql, projectId, sandbox.id, previewUrlFor(ctx.config.preview, sandbox, port));
    return filesSynced;
  }

  async function createFresh(ownerId: string, projectId: string): Promise<{ sandbox: Sandbox; filesSynced: number }> {
    let sandbox: Sandbox;
    try {
      sandbox = await ctx.provider.create(projectId);
    } catch (error) {
      throw new AppError(503, "dependency_unavailable", `Could not start a sandbox: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return { sandbox, filesSynced: await attach(ownerId, projectId, sandbox) };
  }

  /**
   * The project's running sandbox. Created on first need (or when the old one expired), filled with every
   * stored file, watched so changes made inside flow back to storage, and recorded on the project.
   */
  async function ensure(ownerId: string, projectId: string): Promise<Sandbox> {
    const project = await getOwnedProject(ctx, ownerId, projectId);
    const current = sync.get(projectId);
    if (current && (await current.sandbox.isAlive())) return current.sandbox;
    sync.detach(projectId);
    const running = inflight.get(projectId);
    if (running) return running;
    const work = (async () => {
      if (project.sandboxId) {
        const existing = await ctx.provider.connect(project.sandboxId).catch(() => null);
        if (existing) {
          await attach(ownerId, projectId, existing);
          return existing;
        }
      }
      return (await createFresh(ownerId, projectId)).sandbox;
    })();
    inflight.set(projectId, work);
    try {
      return await work;
    } finally {
      inflight.delete(projectId);
    }
  }

  /** Kills the current sandbox (if any), makes a new one with every file, installs and starts the workflow. */
  async function recreate(ownerId: string, projectId: string) {
    const project = await getOwnedProject(ctx, ownerId, projectId);
    const old = sync.get(projectId)?.sandbox ?? (project.sandboxId ? await ctx.provider.connect(project.sandboxId).catch(() => null) : null);
    sync.detach(projectId);
    await old?.kill().catch(() => {});
    const { sandbox, filesSynced } = await createFresh(ownerId, projectId);
    if (project.workflowCommand) {
      const packageJson = await fileRows.findFileByPath(ctx.sql, projectId, "package.json");
      // A new sandbox has no node_modules (they never sync): install before starting the app, from the
      // template cache when package.json is exactly a template's.
      const bytes = packageJson && (await ctx.store.get(packageJson.storageKey));
      if (bytes) {
        const template = await templateWithPackageJson(dependencies.templateCache, bytes);
        const installed = await installDependencies(dependencies, sandbox, template, RECREATE_INSTALL);
        if (installed.exitCode !== 0) ctx.logger.warn("installing dependencies after recreate failed", { projectId, output: installed.output });
      }
      await startWorkflow(sandbox, project.workflowCommand);
    }
    const port = await getPreviewPort(ctx.sql, projectId);
    return { url: previewUrlFor(ctx.config.preview, sandbox, port), filesSynced, workflowCommand: project.workflowCommand };
  }

  /** Whether the project's recorded sandbox is still running. */
  async function validate(ownerId: string, projectId: string): Promise<boolean> {
    const project = await getOwnedProject(ctx, ownerId, projectId);
    if (!project.sandboxId) return false;
    const a = sync.get(projectId);
    if (a && a.sandbox.id === project.sandboxId) return a.sandbox.isAlive();
    const sandbox = await ctx.provider.connect(project.sandboxId).catch(() => null);
    return sandbox ? sandbox.isAlive() : false;
  }

  return { ensure, recreate, validate };
}
