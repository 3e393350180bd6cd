/**
 * The agent loop: ask the model, run the tools it calls, give it their results, and repeat until it
 * answers without tools. A step cap, a token budget and a time budget end runaway loops with a message.
 * It reports everything as typed events (SPEC.md §7) and knows nothing of HTTP or the database.
 *
 * @example
 * const result = await runAgent({ client, model, messages, tools, toolContext, enableReasoning: false,
 *   signal, limits: DEFAULT_AGENT_LIMITS, emit: (event) => console.log(event) });
 */
import type { RunStatus, StreamEvent, TokenUsage } from "@shared/events/stream";
import type { ActionStep } from "@shared/schemas/message";
import type { Logger } from "../lib/logger";
import type { ChatMessage } from "./chat-message";
import { estimateMessageTokens, estimateTokens, trimRunMessages } from "./history";
import type { ModelClient } from "./model";
import { ModelTurnError, runModelTurn } from "./model-stream";
import { clip, type RunToolContext, type StepStatus, type Tool, type ToolContext } from "./tools/define-tool";
import { executeToolCall, previewSummary } from "./tools/execute";
import { toToolSpecs } from "./tools/registry";

export type AgentLimits = {
  /** Model calls per run. */
  maxSteps: number;
  /** Tokens per run (as the model reports them, else estimated). */
  maxRunTokens: number;
  /** Wall-clock time per run. */
  maxRunMs: number;
  /** No data from the model for this long ends the turn. */
  idleTimeoutMs: number;
  /** Retries of a model call that failed before showing anything (429, 5xx, lost connection). */
  maxRetries: number;
  /** A single wait longer than this (e.g. a long retry-after) is not waited for: the run ends saying so. */
  maxRetryWaitMs: number;
  backoffBaseMs: number;
  /** The model's context window, in tokens; history and tool results are trimmed to fit. */
  contextTokens: number;
};

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxSteps: 40,
  maxRunTokens: 2_000_000,
  maxRunMs: 20 * 60_000,
  idleTimeoutMs: 3 * 60_000,
  maxRetries: 3,
  maxRetryWaitMs: 60_000,
  backoffBaseMs: 1_000,
  contextTokens: 32_000,
};

/** Tokens kept free for the model's answer. */
export const OUTPUT_RESERVE_TOKENS = 4_096;
const TOOL_RESULT_FOR_MODEL = 20_000;
const TOOL_RESULT_FOR_BADGE = 2_000;

export type AgentRunInput = {
  client: ModelClient;
  model: string;
  /** System prompt, trimmed history and the new user message. Tool turns are appended to it. */
  messages: ChatMessage[];
  tools: Tool[];
  toolContext: RunToolContext;
  enableReasoning: boolean;
  signal: AbortSignal;
  limits: AgentLimits;
  emit(event: StreamEvent): void;
  logger?: Logger;
};

export type AgentRunResult = { status: RunStatus; usage: TokenUsage | null; error?: string };

class BudgetExceeded extends Error {}

export async function runAgent(input: AgentRunInput): Promise<AgentRunResult> {
  const { limits, emit, messages } = input;
  const toolSpecs = toToolSpecs(input.tools);
  const toolTokens = estimateTokens(JSON.stringify(toolSpecs));
  const conversationBudget = Math.max(2_000, limits.contextTokens - OUTPUT_RESERVE_TOKENS - toolTokens);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new BudgetExceeded()), limits.maxRunMs);
  const signal = AbortSignal.any([input.signal, deadline.signal]);

  const actions: ActionStep[] = [];
  let atLineStart = true;
  let afterStep = false;
  let reported: TokenUsage | null = null;
  let spentTokens = 0;

  const text = (content: string) => {
    // A blank line between step lines and the model's next words keeps them apart in Markdown.
    if (afterStep) content = `\n${content}`;
    afterStep = false;
    emit({ type: "chunk", content });
    atLineStart = content.endsWith("\n");
  };
  const step = (line: string, status: StepStatus) => {
    emit({ type: "chunk", content: `${atLineStart ? "" : "\n"}${line}\n`, step: status });
    atLineStart = true;
    afterStep = true;
    const action = { description: line, status };
    emit({ type: "action", action });
    if (status === "completed") actions.push(action);
  };
  const toolContext: ToolContext = { ...input.toolContext, signal, step };

  let result: AgentRunResult;
  try {
    result = await loop();
  } catch (error) {
    if (input.signal.aborted) result = { status: "stopped", usage: reported };
    else if (deadline.signal.aborted) {
      result = fail(`This run reached its time limit of ${Math.round(limits.maxRunMs / 60_000)} min and was ended. What was done so far is saved; send a message to continue.`);
    } else if (error instanceof ModelTurnError) result = fail(error.message);
    else {
      input.logger?.error("agent run failed", { error: String(error), stack: (error as Error)?.stack });
      result = fail(`The agent stopped because of an unexpected server error: ${error instanceof Error ? error.message : String(error)}`);
    }
  } finally {
    clearTimeout(timer);
  }
  if (actions.length) emit({ type: "actions_completed", actions });
  emit({ type: "done", status: result.status, usage: result.usage });
  return result;

  function fail(message: string): AgentRunResult {
    emit({ type: "error", message });
    return { status: "failed", usage: reported, error: message };
  }

  async function loop(): Promise<AgentRunResult> {
    let lastStepMessages = 1;
    for (let stepNo = 1; ; stepNo++) {
      if (spentTokens >= limits.maxRunTokens) {
        return fail(`This run used its budget of ${limits.maxRunTokens.toLocaleString("en")} tokens and was ended. What was done so far is saved; send a message to continue.`);
      }
      trimRunMessages(messages, conversationBudget, lastStepMessages);
      const promptEstimate = messages.reduce((n, m) => n + estimateMessageTokens(m), toolTokens);
      const turn = await runModelTurn({
        client: input.client,
        model: input.model,
        messages,
        tools: toolSpecs,
        enableReasoning: input.enableReasoning,
        signal,
        idleTimeoutMs: limits.idleTimeoutMs,
        maxRetries: limits.maxRetries,
        maxRetryWaitMs: limits.maxRetryWaitMs,
        backoffBaseMs: limits.backoffBaseMs,
        onText: text,
        onThinking: (content) => emit({ type: "thinking", content }),
        onRetry: (failure, waitMs, attempt) => input.logger?.warn("model call failed; retrying", { kind: failure.kind, waitMs, attempt }),
      });
      if (turn.usage) {
        reported = {
          promptTokens: (reported?.promptTokens ?? 0) + turn.usage.promptTokens,
          completionTokens: (reported?.completionTokens ?? 0) + turn.usage.completionTokens,
          totalTokens: (reported?.totalTokens ?? 0) + turn.usage.totalTokens,
        };
        spentTokens += turn.usage.totalTokens;
      } else {
        spentTokens += promptEstimate + estimateTokens(turn.text + JSON.stringify(turn.toolCalls));
      }

      if (turn.toolCalls.length === 0) {
        if (turn.finishReason === "length") text(`${atLineStart ? "" : "\n\n"}_(The model reached its output limit, so this answer may be incomplete.)_`);
        return { status: "complete", usage: reported };
      }

      messages.push({ role: "assistant", content: turn.text, toolCalls: turn.toolCalls, ...(turn.reasoning ? { reasoning: turn.reasoning } : {}) });
      for (const call of turn.toolCalls) {
        const tool = input.tools.find((t) => t.name === call.name);
        emit({ type: "tool_start", name: call.name, summary: previewSummary(tool, call.arguments) });
        const outcome = await executeToolCall(input.tools, call.name, call.arguments, toolContext);
        emit({ type: "tool_complete", name: call.name, summary: outcome.summary, result: clip(outcome.result, TOOL_RESULT_FOR_BADGE) });
        messages.push({ role: "tool", toolCallId: call.id, content: clip(outcome.result, TOOL_RESULT_FOR_MODEL) });
      }
      lastStepMessages = 1 + turn.toolCalls.length;

      if (stepNo >= limits.maxSteps) {
        return fail(
          `Stopped after ${limits.maxSteps} steps: the agent was still working. What was done so far is saved; send a message (for example "continue") to carry on.`,
        );
      }
    }
  }
}
