/**
 * The project sandbox service: which sandbox is a project's (lifecycle.ts), how it and storage stay in step
 * (sync.ts), templates and their dependency cache (apply-template.ts, template-cache.ts), and the app's
 * workflow (workflow.ts). Built once at start-up from the chosen SandboxProvider; its `sync` is the hook the
 * file service pushes changes through (`ServiceContext.sandboxSync`).
 *
 * @example
 * const sandboxes = createProjectSandboxes({ sql, store, logger, events, provider, config });
 * const deps = { ...ctx, sandboxes, sandboxSync: sandboxes.sync };
 * await sandboxes.ensure(access);
 */
import { isProjectSandbox } from "../../db/project-sandbox";
import { badRequest } from "../../lib/errors";
import type { HostLimits } from "../../sandbox/types";
import type { ProjectAccess } from "../access";
import { getProject } from "../projects";
import { applyTemplate } from "./apply-template";
import { createSandboxLifecycle, type LifecycleDeps, type RecreateResult } from "./lifecycle";
import { createSandboxProcesses, type SandboxProcessesService } from "./processes";
import { createProjectEnv, restartAppOnEnvChange, type ProjectEnv } from "./project-env";
import { createSandboxSync, type SandboxSyncService } from "./sync";
import { createTemplateCache, type TemplateCache } from "./template-cache";
import { loadTemplate } from "./templates";
import type { ProjectSandboxes, TemplateName } from "./types";
import { startWorkflow } from "./workflow";

export type { AppliedTemplate, DependencySource, ProjectSandboxes, TemplateName } from "./types";

export type ProjectSandboxesService = ProjectSandboxes & {
  /**
   * Kills the current sandbox (if any), makes a new one with every file, starts the workflow. Concurrent
   * calls for one project (on any instance) collapse into one recreate and share its result.
   */
  recreate(access: ProjectAccess): Promise<RecreateResult>;
  /** Stops this sandbox of the project wherever it runs (this instance at once, the others by the bus). */
  stop(ownerId: string, projectId: string, sandboxId: string | null): Promise<void>;
  /** Whether some project names this sandbox as its own (false once it was deleted or recreated away). */
  isProjectSandbox(sandboxId: string): Promise<boolean>;
  /** Whether the project's recorded sandbox is still running. */
  validate(access: ProjectAccess): Promise<boolean>;
  /** The preview URL of the project's app, or null when it has no sandbox. */
  url(access: ProjectAccess): Promise<string | null>;
  /**
   * Fills the template dependency cache for these templates in the background (local provider only; no-op
   * otherwise), so the first project to apply one gets the fast copy too. Never rejects.
   */
  warmTemplates(names: readonly TemplateName[]): void;
  /** The project's named processes (its `app` dev server and others): routes and the agent's checks. */
  readonly processes: SandboxProcessesService;
  /** The template dependency cache, or null when the provider has none (E2B). */
  readonly templateCache: TemplateCache | null;
  /** The hook file writes reach this instance's sandboxes through: pass it as `ServiceContext.sandboxSync`. */
  readonly sync: SandboxSyncService;
  /** Stops syncing and every sandbox of this instance; called again, it returns the first call's promise. */
  shutdown(): Promise<void>;
  /** Sandboxes this instance has attached (for /metrics). */
  activeCount(): number;
  /** The local provider's cgroup mode and MAX_SANDBOXES_PER_HOST (for /api/ready); null on E2B. */
  hostLimits(): HostLimits | null;
  /** What every process in a project's sandbox gets in its environment: parts register contributors here. */
  readonly env: ProjectEnv;
};

export function createProjectSandboxes(ctx: LifecycleDeps): ProjectSandboxesService {
  const sync = createSandboxSync(ctx);
  const templateCache = createTemplateCache({ provider: ctx.provider, logger: ctx.logger });
  const dependencies = { templateCache, logger: ctx.logger };
  const env = createProjectEnv(ctx);
  const databases = ctx.appDatabases;
  // DATABASE_URL in every process: the sandbox's own 127.0.0.1:5432 locally; on E2B the server's address, or
  // nothing when there is none it can reach (the tools and API say so when asked for the database).
  if (databases)
    env.register("database", async (projectId) => ({
      DATABASE_URL: await databases.sandboxUrl(projectId, ctx.provider.kind === "local" ? "local" : "remote"),
    }));
  const lifecycle = createSandboxLifecycle(ctx, sync, dependencies, env);
  const stopRestarts = restartAppOnEnvChange(ctx, (projectId) => sync.get(projectId)?.sandbox ?? null);
  const processes = createSandboxProcesses({ ensure: (access) => lifecycle.ensure(access) });
  let shuttingDown: Promise<void> | null = null;

  return {
    ensure: lifecycle.ensure,
    recreate: lifecycle.recreate,
    stop: lifecycle.stop,
    isProjectSandbox: (sandboxId) => isProjectSandbox(ctx.sql, sandboxId),
    validate: lifecycle.validate,
    applyTemplate: (access, name, options) => applyTemplate({ ...ctx, ...dependencies, lifecycle, sync }, access, name, options),

    async runWorkflow(access, options) {
      const project = await getProject(ctx, access);
      if (!project.workflowCommand) throw badRequest("The AI hasn't configured a run command yet");
      const sandbox = await lifecycle.ensure(access, options);
      await startWorkflow(sandbox, project.workflowCommand);
      return { workflowCommand: project.workflowCommand };
    },

    async url(access) {
      return (await getProject(ctx, access)).sandboxUrl;
    },

    templateCache,
    sync,
    processes,
    env,

    warmTemplates(names) {
      if (!templateCache) return;
      for (const name of names) {
        void loadTemplate(name).then(
          (template) => templateCache.key(template) && templateCache.populateInBackground(template),
          (error: unknown) => ctx.logger.warn("could not read a template to warm its cache", { template: name, error: String(error) }),
        );
      }
    },

    activeCount: () => sync.count(),
    hostLimits: () => ctx.provider.hostLimits ?? null,

    shutdown() {
      // Graceful shutdown calls this early and the parts' close again: one teardown serves both.
      shuttingDown ??= (async () => {
        lifecycle.close();
        stopRestarts();
        sync.stop();
        await ctx.provider.shutdown();
      })();
      return shuttingDown;
    },
  };
}
