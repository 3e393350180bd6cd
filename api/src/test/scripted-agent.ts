/**
 * One agent run against the scripted model server, through the real `openai` SDK, on an in-memory
 * workspace: what the agent/ behaviour tests share. The run's answer text, thinking, step lines and errors
 * are collected from its events.
 *
 * @example
 * const model = await startFakeModelServer();
 * const agent = scriptedAgent(() => model);
 * model.enqueue(turn.text("Hi"));
 * const r = await agent.run();
 */
import type { StreamEvent } from "@shared/events/stream";
import type { ChatMessage } from "../agent/chat-message";
import { DEFAULT_AGENT_LIMITS, runAgent, type AgentLimits, type AgentRunInput } from "../agent/loop";
import type { ModelClient } from "../agent/model";
import { createModelClient } from "../agent/model-client";
import type { RunToolContext, Tool } from "../agent/tools/define-tool";
import { editFileTool } from "../agent/tools/edit-file";
import { readFileTool } from "../agent/tools/read-file";
import { writeFileTool } from "../agent/tools/write-file";
import { silentLogger, type Logger } from "../lib/logger";
import type { FakeModelServer } from "./fake-model-server";
import { memoryWorkspace } from "./memory-workspace";

export type ScriptedRunOptions = {
  limits?: Partial<AgentLimits>;
  enableReasoning?: boolean;
  messages?: ChatMessage[];
  files?: Record<string, string>;
  logger?: Logger;
  model?: string;
  tools?: Tool[];
  /** A client kept across runs (what it learnt of a model is remembered); a fresh one by default. */
  client?: ModelClient;
  beforeFinish?: AgentRunInput["beforeFinish"];
  /** The tokenizer (production's, or the engine's rough estimate when absent). */
  countTokens?: AgentRunInput["countTokens"];
};

export const defaultTools = [writeFileTool, readFileTool, editFileTool] as Tool[];

export function scriptedAgent(server: () => FakeModelServer) {
  const client = () => createModelClient({ baseUrl: server().baseUrl, apiKey: "test" });

  async function run(o: ScriptedRunOptions = {}) {
    const workspace = memoryWorkspace(o.files ?? {});
    const events: StreamEvent[] = [];
    const result = await runAgent({
      client: o.client ?? client(),
      model: o.model ?? "fake-model",
      messages: o.messages ?? [
        { role: "system", content: "You are a test." },
        { role: "user", content: "Build it" },
      ],
      tools: o.tools ?? defaultTools,
      toolContext: { ...workspace, search: { kind: "none" }, fetch } as RunToolContext,
      enableReasoning: o.enableReasoning ?? false,
      signal: new AbortController().signal,
      limits: { ...DEFAULT_AGENT_LIMITS, backoffBaseMs: 5, idleTimeoutMs: 3_000, ...o.limits },
      emit: (e) => events.push(e),
      logger: o.logger ?? silentLogger,
      beforeFinish: o.beforeFinish,
      countTokens: o.countTokens,
    });
    const text = events.flatMap((e) => (e.type === "chunk" && !e.step ? [e.content] : [])).join("");
    const thinking = events.flatMap((e) => (e.type === "thinking" ? [e.content] : [])).join("");
    const errors = events.flatMap((e) => (e.type === "error" ? [e.message] : []));
    const steps = events.flatMap((e) => (e.type === "chunk" && e.step ? [e.content] : []));
    return { result, events, text, thinking, errors, steps, files: workspace.fileMap };
  }

  /** The tool results the model read, in order, in its newest request. */
  const toolResults = () => {
    const last = server().requests.at(-1)!.body.messages;
    return last.filter((m) => m.role === "tool").map((m) => String(m.content));
  };

  return { run, client, toolResults };
}
