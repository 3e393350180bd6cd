/**
 * An agent run's workspace: the project's stored files, its sandbox (created on first need and reused for
 * the rest of the run) and its workflow command, scoped to one project whose ownership the run checked at
 * its start. The only file of the chat runs that knows the sandbox service.
 *
 * Files the run writes before it has a sandbox are remembered and written into the sandbox when it is
 * first handed out; after that, each write goes straight in too. (The sandbox sync also pushes stored
 * writes, but asynchronously: this makes a command right after a write see it.)
 *
 * @example
 * const workspace = createRunWorkspace(ctx, sandboxes, ownerId, projectId);
 * await workspace.files.write("src/App.tsx", "export {};\n");
 * const result = await workspace.sandbox?.run("cat src/App.tsx", { timeoutMs: 10_000, signal });
 */
import type { TemplateName } from "@shared/schemas/sandbox";
import { setWorkflowCommand } from "../../db/project-workflow";
import type { ProjectSandboxes } from "../../sandbox/project-sandboxes-types";
import type { RunResult, Sandbox } from "../../sandbox/types";
import { notFound } from "../../lib/errors";
import type { ServiceContext } from "../context";
import { listFilesInProject, readFileInProject, writeFileInProject } from "../files";

const commandResult = (r: RunResult) => ({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, truncated: r.truncated });

export function createRunWorkspace(ctx: ServiceContext, sandboxes: ProjectSandboxes | null, ownerId: string, projectId: string) {
  let pending: Promise<Sandbox> | null = null;
  let ready: Sandbox | null = null;
  const unsynced = new Map<string, string>();

  async function sandbox(): Promise<Sandbox> {
    if (ready && (await ready.isAlive().catch(() => false))) return ready;
    ready = null;
    pending ??= sandboxes!.ensure(ownerId, projectId);
    try {
      const s = await pending;
      for (const [path, content] of unsynced) await s.files.write(path, content);
      unsynced.clear();
      ready = s;
      return s;
    } finally {
      pending = null;
    }
  }

  return {
    files: {
      list: () => listFilesInProject(ctx, projectId),
      read: (path: string) => readFileInProject(ctx, projectId, path),
      async write(path: string, content: string) {
        const { file, created } = await writeFileInProject(ctx, ownerId, projectId, path, content);
        // Removed once the file service pushes writes to the sandbox itself.
        if (ready) await ready.files.write(file.path, content);
        else unsynced.set(file.path, content);
        return { path: file.path, size: file.size, created };
      },
    },
    sandbox: sandboxes && {
      run: async (command: string, options: { timeoutMs: number; signal: AbortSignal }) => commandResult(await (await sandbox()).run(command, options)),
      async start(command: string, onOutput: (chunk: string) => void) {
        await (await sandbox()).run(command, { background: true, onStdout: onOutput, onStderr: onOutput });
      },
      applyTemplate: (template: TemplateName) => sandboxes.applyTemplate(ownerId, projectId, template),
    },
    workflow: {
      async set(command: string) {
        if (!(await setWorkflowCommand(ctx.sql, projectId, command))) throw notFound("Project");
      },
    },
  };
}
