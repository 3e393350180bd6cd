/**
 * In-memory stand-ins for the agent's ports, for engine tests that need no database, storage or sandbox:
 * a workspace whose files live in a Map, and a run store + conversation source that keep runs in memory
 * and count the ownership checks.
 *
 * @example
 * const w = memoryWorkspace({ "src/a.ts": "a" });
 * const ctx = toolContext(w);
 * await ctx.call(writeFileTool, { path: "b.ts", content: "b" });
 * expect(w.fileMap.get("b.ts")).toBe("b");
 */
import type { StreamEvent } from "@shared/events/stream";
import type { Message } from "@shared/schemas/message";
import type { StepStatus, Tool, ToolContext } from "../agent/tools/define-tool";
import { executeToolCall } from "../agent/tools/execute";
import type { AppRuntime, ConversationSource, ProjectSandbox, RunClaim, RunMessage, RunStore, Workspace } from "../agent/ports";

const size = (text: string) => new TextEncoder().encode(text).length;

export function memoryWorkspace(initial: Record<string, string> = {}, sandbox: ProjectSandbox | null = null, app: AppRuntime | null = null) {
  const fileMap = new Map(Object.entries(initial));
  const workflow: { command: string | null; port: number | null } = { command: null, port: null };
  const workspace: Workspace = {
    files: {
      list: async () => [...fileMap].map(([path, content]) => ({ path, size: size(content) })),
      read: async (path) => {
        const content = fileMap.get(path);
        return content === undefined ? null : { content, binary: false, size: size(content) };
      },
      write: async (path, content) => {
        const created = !fileMap.has(path);
        fileMap.set(path, content);
        return { path, size: size(content), created };
      },
    },
    sandbox,
    workflow: {
      set: async (command, port) => {
        workflow.command = command;
        if (port !== undefined) workflow.port = port;
      },
    },
    app,
  };
  return { ...workspace, fileMap, workflow: workspace.workflow, workflowCommand: () => workflow.command, workflowPort: () => workflow.port };
}

/** A tool context on a workspace, recording the step lines the tool streams. */
export function toolContext(workspace: Workspace, o: { signal?: AbortSignal; resultChars?: () => number } = {}) {
  const steps: { line: string; status: StepStatus }[] = [];
  const ctx: ToolContext = {
    ...workspace,
    search: { kind: "none" },
    fetch,
    signal: o.signal ?? new AbortController().signal,
    step: (line, status) => steps.push({ line, status }),
    ...(o.resultChars ? { resultChars: o.resultChars } : {}),
  };
  return Object.assign(ctx, {
    steps,
    /** Calls the tool as the loop does: raw JSON arguments in, a result for the model out. */
    call: <T extends Tool>(tool: T, input: unknown) =>
      executeToolCall([tool as Tool], tool.name, typeof input === "string" ? input : JSON.stringify(input), ctx),
  });
}

/** Runs and conversations in memory: one owner per project, messages saved as the store is called. */
export function memoryRunStore(projects: Record<string, { ownerId: string; name: string }>) {
  const saved = new Map<string, RunMessage & { status: string; projectId: string }>();
  const messages: Message[] = [];
  const calls = { saveProgress: 0, heartbeat: 0, finish: 0 };
  const running = new Set<string>();

  const store: RunStore & ConversationSource = {
    readImages: async () => [],
    async load({ projectId }) {
      const project = projects[projectId]!;
      return {
        project: { name: project.name, description: null, workflowCommand: null, files: [] },
        messages: messages.filter((m) => m.projectId === projectId),
      };
    },
    failAbandoned: async () => 0,
    async claim(c: RunClaim) {
      if (running.has(c.projectId)) return false;
      running.add(c.projectId);
      const at = new Date().toISOString();
      const base = { projectId: c.projectId, thinking: null, toolCalls: [], actions: [], usage: null, createdAt: at };
      messages.push({ ...base, id: c.userMessageId, role: "user", content: c.content, attachments: c.attachments });
      messages.push({ ...base, id: c.assistantMessageId, role: "assistant", content: "", attachments: [], status: "running" } as Message);
      saved.set(c.assistantMessageId, { content: "", thinking: null, toolCalls: [], actions: [], usage: null, status: "running", projectId: c.projectId });
      return true;
    },
    async saveProgress(id, message) {
      calls.saveProgress++;
      saved.set(id, { ...saved.get(id)!, ...message });
    },
    async heartbeat() {
      calls.heartbeat++;
    },
    async finish(id, projectId, message) {
      calls.finish++;
      running.delete(projectId);
      saved.set(id, { ...message, projectId });
    },
  };
  return { store, saved, messages, calls };
}

export const chunksOf = (events: StreamEvent[]) => events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])).join("");
