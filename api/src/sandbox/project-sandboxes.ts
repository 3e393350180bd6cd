/**
 * Keeps each project's sandbox and its stored files in step. Storage is the source of truth:
 * - a new (or recreated) sandbox receives every stored file;
 * - changes through the API (file events with origin "api") are written into the attached sandbox;
 * - changes made inside the sandbox by commands are watched and written back through the file services
 *   with origin "sandbox" (so they are not echoed back), skipping ignored folders and oversize files.
 * A content hash per path tells a real change from the echo of our own write.
 *
 * Template dependencies come from the shared, read-only template cache when the provider has one (local):
 * a copy into the project's sandbox instead of a cold install (template-cache.ts). E2B installs as usual.
 */
import { filePathProblem } from "@shared/file-path";
import { MAX_FILE_CONTENT_BYTES } from "@shared/schemas/file";
import * as fileRows from "../db/files";
import { setWorkflowCommand } from "../db/project-workflow";
import { getPreviewPort, setPreviewPort, setProjectSandbox } from "../db/project-sandbox";
import type { BusEvent } from "../events/types";
import type { Config } from "../lib/config";
import { AppError, badRequest } from "../lib/errors";
import { previewUrl } from "../realtime/preview-host";
import type { ServiceContext } from "../services/context";
import { deleteProjectFile, writeFileAtPath } from "../services/files";
import { getOwnedProject } from "../services/projects";
import { isIgnoredPath } from "./ignored-paths";
import type { DependencySource, ProjectSandboxes, TemplateName } from "./project-sandboxes-types";
import { createTemplateCache, templatePackageJson, type TemplateCache } from "./template-cache";
import { loadTemplate, TEMPLATE_NAMES, type Template } from "./templates";
import type { FileChange, Sandbox, SandboxProvider } from "./types";

type Attached = {
  sandbox: Sandbox;
  ownerId: string;
  projectId: string;
  stopWatch: () => void;
  /** Hash of the content we last saw (or wrote) per path. */
  known: Map<string, string>;
  /** Changes are applied one at a time per project, in order. */
  queue: Promise<unknown>;
  pending: Map<string, ReturnType<typeof setTimeout>>;
};

export type ProjectSandboxesService = ProjectSandboxes & {
  /** Kills the current sandbox (if any), makes a new one with every file, starts the workflow. */
  recreate(ownerId: string, projectId: string): Promise<{ url: string; filesSynced: number; workflowCommand: string | null }>;
  /** Whether the project's recorded sandbox is still running. */
  validate(ownerId: string, projectId: string): Promise<boolean>;
  /** The preview URL of the project's app, or null when it has no sandbox. */
  url(ownerId: string, projectId: string): Promise<string | null>;
  /**
   * Fills the template dependency cache for these templates in the background (local provider only; no-op
   * otherwise), so the first project to apply one gets the fast copy too. Never rejects.
   */
  warmTemplates(names: readonly TemplateName[]): void;
  /** The template dependency cache, or null when the provider has none (E2B). */
  readonly templateCache: TemplateCache | null;
  shutdown(): Promise<void>;
  /** Sandboxes this instance has attached (for /metrics). */
  activeCount(): number;
};

const SYNC_DEBOUNCE_MS = 60;
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const COPY_TIMEOUT_MS = 2 * 60_000;
/** How long an apply waits for the template's dev server to accept connections before answering anyway. */
const SERVER_START_WAIT_MS = 20_000;
/** What a recreated sandbox runs when its package.json is not exactly a template's. */
const RECREATE_INSTALL = "npm install --no-audit --no-fund --loglevel=error";
const hash = (bytes: Uint8Array) => new Bun.CryptoHasher("sha1").update(bytes).digest("hex");

export function createProjectSandboxes(ctx: ServiceContext & { provider: SandboxProvider; config: Config }): ProjectSandboxesService {
  const attached = new Map<string, Attached>();
  const inflight = new Map<string, Promise<Sandbox>>();
  const fromSandbox: ServiceContext = { ...ctx, origin: "sandbox" };
  const templateCache = createTemplateCache({ provider: ctx.provider, logger: ctx.logger });

  const enqueue = (a: Attached, work: () => Promise<unknown>) => {
    a.queue = a.queue.then(work).catch((error) => ctx.logger.warn("sandbox sync step failed", { projectId: a.projectId, error: String(error) }));
    return a.queue;
  };

  const urlFor = (sandbox: Sandbox, port: number) => {
    const host = sandbox.publicPreviewHost(port);
    return host ? `https://${host}` : previewUrl(ctx.config.preview, sandbox.id, port);
  };

  // API → sandbox.
  const unsubscribe = ctx.events.subscribe((event: BusEvent) => {
    if (event.origin === "sandbox") return;
    const a = attached.get(event.projectId);
    if (!a) return;
    void enqueue(a, async () => {
      if (event.type === "file.deleted") {
        a.known.delete(event.file.path);
        await a.sandbox.files.remove(event.file.path);
      } else if (event.type === "file.renamed") {
        const h = a.known.get(event.oldPath);
        a.known.delete(event.oldPath);
        if (h) a.known.set(event.file.path, h);
        await a.sandbox.files.rename(event.oldPath, event.file.path);
      } else {
        const row = await fileRows.findFileByPath(ctx.sql, event.projectId, event.file.path);
        const bytes = row && (await ctx.store.get(row.storageKey));
        if (!bytes) return;
        a.known.set(event.file.path, hash(bytes));
        await a.sandbox.files.write(event.file.path, bytes);
      }
    });
  });

  // Sandbox → storage.
  function onSandboxChange(a: Attached, change: FileChange) {
    if (isIgnoredPath(change.path) || filePathProblem(change.path)) return;
    clearTimeout(a.pending.get(change.path));
    a.pending.set(
      change.path,
      setTimeout(() => {
        a.pending.delete(change.path);
        void enqueue(a, () => syncBack(a, change.path));
      }, SYNC_DEBOUNCE_MS),
    );
  }

  async function syncBack(a: Attached, path: string) {
    const bytes = await a.sandbox.files.read(path);
    if (bytes === null) {
      if (!a.known.has(path)) return;
      a.known.delete(path);
      const row = await fileRows.findFileByPath(ctx.sql, a.projectId, path);
      if (row) await deleteProjectFile(fromSandbox, a.ownerId, row.id);
      return;
    }
    if (bytes.length > MAX_FILE_CONTENT_BYTES) {
      ctx.logger.warn("file made in the sandbox is over the size limit; not saved", { projectId: a.projectId, path, size: bytes.length });
      return;
    }
    const h = hash(bytes);
    if (a.known.get(path) === h) return;
    a.known.set(path, h);
    await writeFileAtPath(fromSandbox, a.ownerId, a.projectId, path, bytes);
  }

  async function pushAllFiles(sandbox: Sandbox, projectId: string, known: Map<string, string>): Promise<number> {
    const rows = await fileRows.listFiles(ctx.sql, projectId);
    for (let i = 0; i < rows.length; i += 8) {
      await Promise.all(
        rows.slice(i, i + 8).map(async (row) => {
          const bytes = await ctx.store.get(row.storageKey);
          if (!bytes) return;
          known.set(row.path, hash(bytes));
          await sandbox.files.write(row.path, bytes);
        }),
      );
    }
    return rows.length;
  }

  async function attach(ownerId: string, projectId: string, sandbox: Sandbox): Promise<{ a: Attached; filesSynced: number }> {
    const known = new Map<string, string>();
    const filesSynced = await pushAllFiles(sandbox, projectId, known);
    const a: Attached = { sandbox, ownerId, projectId, known, stopWatch: () => {}, queue: Promise.resolve(), pending: new Map() };
    a.stopWatch = await sandbox.files.watch((change) => onSandboxChange(a, change));
    attached.set(projectId, a);
    const port = await getPreviewPort(ctx.sql, projectId);
    await setProjectSandbox(ctx.sql, projectId, sandbox.id, urlFor(sandbox, port));
    return { a, filesSynced };
  }

  function detach(projectId: string) {
    const a = attached.get(projectId);
    if (!a) return;
    a.stopWatch();
    for (const timer of a.pending.values()) clearTimeout(timer);
    attached.delete(projectId);
  }

  async function createFresh(ownerId: string, projectId: string) {
    let sandbox: Sandbox;
    try {
      sandbox = await ctx.provider.create(projectId);
    } catch (error) {
      throw new AppError(503, "dependency_unavailable", `Could not start a sandbox: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return { sandbox, ...(await attach(ownerId, projectId, sandbox)) };
  }

  async function ensure(ownerId: string, projectId: string): Promise<Sandbox> {
    const project = await getOwnedProject(ctx, ownerId, projectId);
    const current = attached.get(projectId);
    if (current && (await current.sandbox.isAlive())) return current.sandbox;
    detach(projectId);
    const running = inflight.get(projectId);
    if (running) return running;
    const work = (async () => {
      if (project.sandboxId) {
        const existing = await ctx.provider.connect(project.sandboxId).catch(() => null);
        if (existing) return (await attach(ownerId, projectId, existing)).a.sandbox;
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

  async function startWorkflow(sandbox: Sandbox, command: string) {
    await sandbox.run(command, { background: true });
  }

  /**
   * Waits (inside the sandbox, so it works for every provider) until something accepts connections on `port`,
   * so a preview opened right after an apply finds the app rather than 'Nothing is answering'. Never throws.
   */
  async function waitForServer(sandbox: Sandbox, port: number, timeoutMs: number): Promise<boolean> {
    const tries = Math.ceil(timeoutMs / 50);
    // bash named explicitly: /dev/tcp is bash's; without bash this fails at once instead of waiting in vain.
    const script = `bash -c 'for i in $(seq 1 ${tries}); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && exit 0; sleep 0.05; done; exit 1'`;
    const result = await sandbox.run(script, { timeoutMs: timeoutMs + 5_000 }).catch(() => null);
    return result?.exitCode === 0;
  }

  /**
   * Puts dependencies into the sandbox: a copy of the template's cache entry when `template` is given and its
   * entry is ready (or being made right now, which is waited for), else `fallback` (the plain install; an
   * empty command means nothing to install). A missing entry is started in the background for next time.
   */
  async function installDependencies(
    sandbox: Sandbox,
    template: Template | null,
    fallback: string,
  ): Promise<{ source: DependencySource; exitCode: number | null; output: string }> {
    if (template && templateCache?.key(template)) {
      if (!templateCache.isReady(template)) {
        const pending = templateCache.pending(template);
        if (pending) await pending.catch(() => {});
        else templateCache.populateInBackground(template);
      }
      if (templateCache.isReady(template)) {
        const copied = await sandbox.run(templateCache.copyCommand(template), { timeoutMs: COPY_TIMEOUT_MS });
        if (copied.exitCode === 0) return { source: "template-cache", exitCode: 0, output: "" };
        ctx.logger.warn("copying template dependencies failed; installing instead", {
          template: template.name,
          exitCode: copied.exitCode,
          stderr: copied.stderr.slice(-500),
        });
      }
    }
    if (!fallback) return { source: "none", exitCode: 0, output: "" };
    const result = await sandbox.run(fallback, { timeoutMs: INSTALL_TIMEOUT_MS });
    return { source: "install", exitCode: result.exitCode, output: (result.stderr || result.stdout).slice(-2000) };
  }

  /** The template whose package.json is byte for byte this one (and installs something), if any. */
  async function templateWithPackageJson(bytes: Uint8Array): Promise<Template | null> {
    if (!templateCache) return null;
    for (const name of TEMPLATE_NAMES) {
      const template = await loadTemplate(name);
      const pkg = templatePackageJson(template);
      if (template.install && pkg && Buffer.from(pkg).equals(Buffer.from(bytes))) return template;
    }
    return null;
  }

  return {
    ensure,

    async applyTemplate(ownerId: string, projectId: string, name: TemplateName) {
      const template = await loadTemplate(name);
      const sandbox = await ensure(ownerId, projectId);
      const a = attached.get(projectId)!;
      for (const file of template.files) {
        a.known.set(file.path, hash(file.content));
        await writeFileAtPath(fromSandbox, ownerId, projectId, file.path, file.content);
        await sandbox.files.write(file.path, file.content);
      }
      const installed = await installDependencies(sandbox, template, template.install);
      if (installed.exitCode !== 0) {
        throw new AppError(500, "internal", `Installing the ${name} template's dependencies failed: ${installed.output}`);
      }
      const url = urlFor(sandbox, template.port);
      await setWorkflowCommand(ctx.sql, projectId, template.workflowCommand);
      await setPreviewPort(ctx.sql, projectId, template.port);
      await setProjectSandbox(ctx.sql, projectId, sandbox.id, url);
      await startWorkflow(sandbox, template.workflowCommand);
      if (!(await waitForServer(sandbox, template.port, SERVER_START_WAIT_MS))) {
        ctx.logger.warn("the template's dev server is not accepting connections yet", { projectId, template: name, port: template.port });
      }
      return { filesWritten: template.files.length, workflowCommand: template.workflowCommand, url, dependencies: installed.source };
    },

    async runWorkflow(ownerId: string, projectId: string) {
      const project = await getOwnedProject(ctx, ownerId, projectId);
      if (!project.workflowCommand) throw badRequest("The AI hasn't configured a run command yet");
      const sandbox = await ensure(ownerId, projectId);
      await startWorkflow(sandbox, project.workflowCommand);
      return { workflowCommand: project.workflowCommand };
    },

    async recreate(ownerId: string, projectId: string) {
      const project = await getOwnedProject(ctx, ownerId, projectId);
      const old = attached.get(projectId)?.sandbox ?? (project.sandboxId ? await ctx.provider.connect(project.sandboxId).catch(() => null) : null);
      detach(projectId);
      await old?.kill().catch(() => {});
      const { sandbox, filesSynced } = await createFresh(ownerId, projectId);
      if (project.workflowCommand) {
        const packageJson = await fileRows.findFileByPath(ctx.sql, projectId, "package.json");
        // A new sandbox has no node_modules (they never sync): install before starting the app, from the
        // template cache when package.json is exactly a template's.
        const bytes = packageJson && (await ctx.store.get(packageJson.storageKey));
        if (bytes) {
          const installed = await installDependencies(sandbox, await templateWithPackageJson(bytes), RECREATE_INSTALL);
          if (installed.exitCode !== 0) ctx.logger.warn("installing dependencies after recreate failed", { projectId, output: installed.output });
        }
        await startWorkflow(sandbox, project.workflowCommand);
      }
      const port = await getPreviewPort(ctx.sql, projectId);
      return { url: urlFor(sandbox, port), filesSynced, workflowCommand: project.workflowCommand };
    },

    async validate(ownerId: string, projectId: string) {
      const project = await getOwnedProject(ctx, ownerId, projectId);
      if (!project.sandboxId) return false;
      const a = attached.get(projectId);
      if (a && a.sandbox.id === project.sandboxId) return a.sandbox.isAlive();
      const sandbox = await ctx.provider.connect(project.sandboxId).catch(() => null);
      return sandbox ? sandbox.isAlive() : false;
    },

    async url(ownerId: string, projectId: string) {
      const project = await getOwnedProject(ctx, ownerId, projectId);
      return project.sandboxUrl;
    },

    templateCache,

    warmTemplates(names) {
      if (!templateCache) return;
      for (const name of names) {
        void loadTemplate(name).then(
          (template) => templateCache.key(template) && templateCache.populateInBackground(template),
          (error: unknown) => ctx.logger.warn("could not read a template to warm its cache", { template: name, error: String(error) }),
        );
      }
    },

    activeCount: () => attached.size,

    async shutdown() {
      unsubscribe();
      for (const projectId of [...attached.keys()]) detach(projectId);
      await ctx.provider.shutdown();
    },
  };
}
