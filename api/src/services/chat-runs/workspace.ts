/**
 * An agent run's workspace: the project's stored files, its sandbox (created on first need and reused for
 * the rest of the run), its workflow command, its running app (app-runtime.ts) and its database, scoped to the project its sender's access was checked
 * for at its start. The only file of the chat runs that knows the sandbox service.
 *
 * Writes go through the file service, which pushes the bytes into the attached sandbox and waits for it
 * (`ctx.sandboxSync`), so a command right after a write sees the file; a sandbox attached later receives
 * every stored file when it is made, so nothing written before it exists is missed.
 *
 * @example
 * const workspace = createRunWorkspace(ctx, sandboxes, access);
 * await workspace.files.write("src/App.tsx", "export {};\n");
 * const result = await workspace.sandbox?.run("cat src/App.tsx", { timeoutMs: 10_000, signal });
 */
import type { TemplateName } from "@shared/schemas/sandbox";
import { setPreviewPort } from "../../db/project-sandbox";
import { setWorkflowCommand } from "../../db/project-workflow";
import type { ProjectSandboxes } from "../sandboxes/types";
import type { RunResult, Sandbox } from "../../sandbox/types";
import { notFound } from "../../lib/errors";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { listProjectFiles, readFileInProject, writeFileAtPath } from "../files";
import { ensureProjectDatabase, withProjectDatabase } from "../app-databases";
import { createAppRuntime } from "./app-runtime";
import { createProjectDatabasePort } from "./project-database";

const commandResult = (r: RunResult) => ({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, truncated: r.truncated });

export function createRunWorkspace(ctx: ServiceContext, sandboxes: ProjectSandboxes | null, access: ProjectAccess) {
  const { projectId } = access;
  let pending: Promise<Sandbox> | null = null;
  let ready: Sandbox | null = null;
  let lastChangeAt = 0;

  async function sandbox(): Promise<Sandbox> {
    if (ready && (await ready.isAlive().catch(() => false))) return ready;
    ready = null;
    pending ??= sandboxes!.ensure(access);
    try {
      ready = await pending;
      return ready;
    } finally {
      pending = null;
    }
  }

  return {
    files: {
      list: () => listProjectFiles(ctx, access),
      read: (path: string) => readFileInProject(ctx, access, path),
      async write(path: string, content: string) {
        const { file, created } = await writeFileAtPath(ctx, access, path, content);
        lastChangeAt = Date.now();
        return { path: file.path, size: file.size, created };
      },
    },
    sandbox: sandboxes && {
      run: async (command: string, options: { timeoutMs: number; signal: AbortSignal }) => commandResult(await (await sandbox()).run(command, options)),
      async start(command: string, onOutput: (chunk: string) => void) {
        await (await sandbox()).run(command, { background: true, onStdout: onOutput, onStderr: onOutput });
      },
      async applyTemplate(template: TemplateName) {
        const applied = await sandboxes.applyTemplate(access, template);
        lastChangeAt = Date.now();
        return applied;
      },
    },
    workflow: {
      async set(command: string, port?: number) {
        if (!(await setWorkflowCommand(ctx.sql, projectId, command))) throw notFound("Project");
        // The preview URL follows the port when the sandbox is next attached.
        if (port !== undefined) await setPreviewPort(ctx.sql, projectId, port);
      },
    },
    app: sandboxes && createAppRuntime({ ctx, access, sandbox, lastChangeAt: () => lastChangeAt }),
    // Made on the first tool call that needs it; the client is closed after each call.
    database: ctx.appDatabases
      ? createProjectDatabasePort(async (fn) => {
          await ensureProjectDatabase(ctx, projectId);
          return withProjectDatabase(ctx, projectId, fn);
        })
      : null,
  };
}
