/**
 * Runs agent tools for real in tests: the test database and store, the app's project sandboxes (local
 * provider), and a tool context for a fresh project (the chat-runs workspace a run gets) that records the
 * step lines the tool streams. Tools that need no sandbox can be tested faster on `memoryWorkspace`.
 *
 * @example
 * const h = await toolHarness();
 * const p = await h.project();
 * const out = await p.call(writeFileTool, { path: "a.txt", content: "hi" });
 */
import { accessOf } from "./access";
import { chmodSync } from "node:fs";
import type { StepStatus, Tool, ToolContext } from "../agent/tools/define-tool";
import { executeToolCall } from "../agent/tools/execute";
import { checkLocalSandboxSupport } from "../sandbox/local/check";
import { createRunWorkspace } from "../services/chat-runs/workspace";
import { listProjectFiles, readFileContent } from "../services/files";
import { testApp } from "./test-app";

/** Whether this machine can run local sandboxes (tests of sandbox tools skip, saying why, when not). */
export async function sandboxSupport(): Promise<{ ok: boolean; why: string }> {
  const support = await checkLocalSandboxSupport().catch((e) => ({ ok: false as const, missing: [String(e)] }));
  return support.ok ? { ok: true, why: "" } : { ok: false, why: support.missing.join("; ") };
}

export async function toolHarness(o: { env?: Record<string, string>; fetch?: typeof fetch } = {}) {
  const t = await testApp({ env: o.env });
  // Local sandboxes run as other uids, which must be able to reach the data folder.
  chmodSync(t.deps.config.dataDir, 0o711);

  async function project(name = "Tools") {
    const user = t.user("tools");
    const res = await user.request("POST", "/api/projects", { name });
    const projectId = ((await res.json()) as { id: string }).id;
    const access = await accessOf(t.deps, user.uid, projectId);
    const steps: { line: string; status: StepStatus }[] = [];
    const controller = new AbortController();
    const ctx: ToolContext = {
      ...createRunWorkspace(t.deps, t.deps.sandboxes, access),
      search: t.deps.config.search,
      fetch: o.fetch ?? fetch,
      signal: controller.signal,
      step: (line, status) => steps.push({ line, status }),
    };
    return {
      user,
      projectId,
      ctx,
      steps,
      controller,
      /** Calls the tool as the loop does: raw JSON arguments in, a result for the model out. */
      call: <T extends Tool>(tool: T, input: unknown) =>
        executeToolCall([tool as Tool], tool.name, typeof input === "string" ? input : JSON.stringify(input), ctx),
      async file(path: string): Promise<string | null> {
        const file = (await listProjectFiles(t.deps, access)).find((f) => f.path === path);
        return file ? (await readFileContent(t.deps, access, file.id)).content : null;
      },
    };
  }
  return { t, project, close: () => t.deps.sandboxes.shutdown() };
}
