/**
 * The tools' view of one run: the project, the services that own storage, and the sandbox, created on
 * first need. Files the run writes before it has a sandbox are remembered and written into the sandbox
 * when it is first handed out; after that, each write goes straight in too. (The sandbox sync also pushes
 * stored writes, but asynchronously: this makes a command right after a write see it.)
 */
import type { Config } from "../lib/config";
import type { ProjectSandboxes } from "../services/sandboxes/types";
import type { Sandbox } from "../sandbox/types";
import type { ServiceContext } from "../services/context";
import { ToolError, type ToolContext } from "./tools/define-tool";

export type RunToolContext = Omit<ToolContext, "step" | "signal">;

export function createToolContext(o: {
  services: ServiceContext;
  ownerId: string;
  projectId: string;
  sandboxes: ProjectSandboxes | null;
  search: Config["search"];
  fetch?: typeof fetch;
}): RunToolContext {
  let sandbox: Promise<Sandbox> | null = null;
  let ready: Sandbox | null = null;
  const unsynced = new Map<string, string>();

  return {
    services: o.services,
    ownerId: o.ownerId,
    projectId: o.projectId,
    sandboxes: o.sandboxes,
    search: o.search,
    fetch: o.fetch ?? fetch,
    async sandbox() {
      if (!o.sandboxes) throw new ToolError("Sandboxes are not available on this server, so commands cannot run.");
      if (ready && (await ready.isAlive().catch(() => false))) return ready;
      ready = null;
      sandbox ??= o.sandboxes.ensure(o.ownerId, o.projectId);
      try {
        const s = await sandbox;
        for (const [path, content] of unsynced) await s.files.write(path, content);
        unsynced.clear();
        ready = s;
        return s;
      } finally {
        sandbox = null;
      }
    },
    async syncFile(path, content) {
      if (!ready) {
        unsynced.set(path, content);
        return;
      }
      await ready.files.write(path, content);
    },
  };
}
