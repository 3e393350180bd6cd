/**
 * The agent loop: ask the model, run the tools it calls, give it their results, and repeat until it
 * answers without tools. A step cap, a token budget, a time budget and a stuck detector end runaway loops
 * with a message; the conversation is kept inside the context window (`context-window.ts`). It reports
 * everything as typed events and knows nothing of HTTP or the database.
 *
 * @example
 * const result = await runAgent({ client, model, messages, tools, toolContext, enableReasoning: false,
 *   signal, limits: DEFAULT_AGENT_LIMITS, emit: (event) => console.log(event) });
 */
import type { RunStatus, StreamEvent, TokenUsage } from "@shared/events/stream";
import type { ActionStep } from "@shared/schemas/message";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { ChatMessage } from "./chat-message";
import { looksCut, shortenOldSteps, summariseOlderSteps, SUMMARY_PROMPT, TokenMeter, type CountTokens } from "./context-window";
import type { ModelClient, ModelTurn } from "./model";
import { ModelTurnError, runModelTurn } from "./model-stream";
import { StuckDetector } from "./stuck";
import { clip, type RunToolContext, type StepStatus, type Tool, type ToolContext } from "./tools/define-tool";
import { executeToolCall, previewSummary } from "./tools/execute";
import { toToolSpecs } from "./tools/registry";
import type { FinishCheck, FinishContext } from "./verify";

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
  /** The answer's token limit, sent with every request (MODEL_MAX_OUTPUT_TOKENS). */
  maxOutputTokens: number;
  /** Rounds of "the app has problems, fix them" before a run ends saying what still fails (AGENT_REPAIR_ROUNDS; 0 = no check). */
  repairRounds: number;
  /** Time the dev server gets to recompile after the last change before the app is checked. */
  verifySettleMs: number;
};

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxSteps: 40,
  maxRunTokens: 2_000_000,
  maxRunMs: 20 * 60_000,
  idleTimeoutMs: 3 * 60_000,
  maxRetries: 3,
  maxRetryWaitMs: 60_000,
  backoffBaseMs: 1_000,
  contextTokens: 32_768,
  maxOutputTokens: 4_096,
  repairRounds: 3,
  verifySettleMs: 500,
};

/** Replies cut by the output limit in a row before the run gives up (each got a "write smaller" step). */
const MAX_LENGTH_CUTS = 3;
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
  /** The tokenizer (a port: the agent imports no tokenizer library); a rough estimate when absent. */
  countTokens?: CountTokens;
  /**
   * Called when the model answers without tools, before the run ends (verify.ts): a text returned goes back
   * to the model as a new step (what failed, to fix) and the loop continues; `{ fail }` ends the run as
   * failed with that message; null ends the run. It may stream step lines.
   */
  beforeFinish?(ctx: FinishContext): Promise<FinishCheck>;
};

export type AgentRunResult = { status: RunStatus; usage: TokenUsage | null; error?: string };

class BudgetExceeded extends Error {}

export async function runAgent(input: AgentRunInput): Promise<AgentRunResult> {
  const { limits, emit, messages } = input;
  const toolSpecs = toToolSpecs(input.tools);
  const meter = new TokenMeter(input.countTokens);
  const toolsText = JSON.stringify(toolSpecs);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new BudgetExceeded()), limits.maxRunMs);
  const signal = AbortSignal.any([input.signal, deadline.signal]);

  const actions: ActionStep[] = [];
  let atLineStart = true;
  let afterStep = false;
  let usage: TokenUsage | null = null;
  let spentTokens = 0;
  let contextTokens = limits.contextTokens;
  /** The most prompt tokens the endpoint has shown it takes: set when it silently cut a prompt. */
  let promptCap = Infinity;
  let warnedCut = false;

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
    // A warning step is a done step to the action list; the chunk's `step` and the line's words mark it.
    const action = { description: line, status: status === "warning" ? ("completed" as const) : status };
    emit({ type: "action", action });
    if (action.status === "completed") actions.push(action);
  };
  const toolContext: ToolContext = { ...input.toolContext, signal, step };

  let result: AgentRunResult;
  try {
    result = await loop();
  } catch (error) {
    if (input.signal.aborted) result = { status: "stopped", usage };
    else if (deadline.signal.aborted) {
      result = fail(`This run reached its time limit of ${Math.round(limits.maxRunMs / 60_000)} min and was ended. What was done so far is saved; send a message to continue.`);
    } else if (error instanceof ModelTurnError) result = fail(error.message);
    // A limit of the user's account met outside a tool (the finish check's sandbox): said as it is.
    else if (error instanceof AppError && error.status === 429) result = fail(error.message);
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
    return { status: "failed", usage, error: message };
  }

  /** Tokens the conversation may take: the window less the answer's room (or what the endpoint showed it takes) and the tool schemas. */
  function budget(): number {
    return Math.max(1_000, Math.min(contextTokens - limits.maxOutputTokens, promptCap) - meter.text(toolsText) - 64);
  }

  /** Shortens old steps, then summarises them, until the conversation fits `room` (or nothing is left to do). */
  async function fit(room: number, keepLast: number): Promise<void> {
    if (meter.messages(messages) <= room) return;
    shortenOldSteps(messages, room, keepLast, meter);
    if (meter.messages(messages) <= room) return;
    const summarised = await summariseOlderSteps(messages, keepLast, summarise, Math.max(2_000, room * 2));
    if (summarised) step("Summarised earlier steps to fit the context window", "completed");
    // Still too large (one huge recent step): shorten everything but the newest message.
    if (meter.messages(messages) > room) shortenOldSteps(messages, room, 1, meter);
  }

  async function summarise(transcript: string): Promise<string> {
    const request: ChatMessage[] = [
      { role: "system", content: SUMMARY_PROMPT },
      { role: "user", content: transcript },
    ];
    const turn = await runModelTurn({
      ...turnOptions(request),
      tools: [],
      enableReasoning: false,
      maxOutputTokens: Math.min(limits.maxOutputTokens, 1_024),
      onText: () => {},
      onThinking: () => {},
    });
    count(turn, meter.messages(request));
    return turn.text;
  }

  function turnOptions(list: ChatMessage[]) {
    return {
      client: input.client,
      model: input.model,
      messages: list,
      tools: toolSpecs,
      enableReasoning: input.enableReasoning,
      maxOutputTokens: limits.maxOutputTokens,
      signal,
      idleTimeoutMs: limits.idleTimeoutMs,
      maxRetries: limits.maxRetries,
      maxRetryWaitMs: limits.maxRetryWaitMs,
      backoffBaseMs: limits.backoffBaseMs,
      onText: text,
      onThinking: (content: string) => emit({ type: "thinking", content }),
      onRetry: (failure: { kind: string }, waitMs: number, attempt: number) => input.logger?.warn("model call failed; retrying", { kind: failure.kind, waitMs, attempt }),
    };
  }

  /**
   * Adds a turn's tokens to the run's count; `estimate` is what we counted for its prompt. A turn the
   * endpoint reported no usage for is counted with the tokenizer, and the run's usage says it is estimated.
   * A reply to a prompt the endpoint cut (`cut`) teaches the meter nothing about its tokenizer.
   */
  function count(turn: ModelTurn, estimate: number, cut = false): void {
    const reported = turn.usage;
    const promptTokens = reported?.promptTokens ?? estimate;
    const completionTokens = reported?.completionTokens ?? meter.text(turn.reasoning + turn.text + (turn.toolCalls.length ? JSON.stringify(turn.toolCalls) : ""));
    const totalTokens = reported?.totalTokens ?? promptTokens + completionTokens;
    usage = {
      promptTokens: (usage?.promptTokens ?? 0) + promptTokens,
      completionTokens: (usage?.completionTokens ?? 0) + completionTokens,
      totalTokens: (usage?.totalTokens ?? 0) + totalTokens,
      ...(usage?.estimated || !reported ? { estimated: true } : {}),
    };
    spentTokens += totalTokens;
    if (reported && estimate > 0 && !cut) meter.calibrate(estimate, reported.promptTokens);
  }

  /**
   * The prompt tokens the endpoint took when it reports far fewer than were sent (a silent cut), else null.
   * `tools`: what the tool schemas count in `estimate`.
   */
  function tokensTaken(turn: ModelTurn, estimate: number, list: ChatMessage[], tools: number): number | null {
    const reported = turn.usage?.promptTokens;
    if (reported === undefined) return null;
    const last = list.at(-1);
    const kept = meter.messages(list.filter((m) => m.role === "system")) + (last && last.role !== "system" ? meter.message(last) - meter.imageTokens(last) : 0) + tools;
    const counted = estimate - list.reduce((n, m) => n + meter.imageTokens(m), 0);
    return looksCut(counted, reported, kept) ? reported : null;
  }

  /**
   * One model turn at the current state. A context-length error, or a reply showing the endpoint silently
   * cut the prompt, trims harder and asks once more.
   */
  async function ask(keepLast: number): Promise<ModelTurn> {
    await fit(budget(), keepLast);
    for (let retried = false; ; retried = true) {
      // Counted once per request: the tool schemas are large, and the meter's scale changes only between requests.
      const tools = meter.text(toolsText);
      const estimate = meter.messages(messages) + tools;
      let turn: ModelTurn;
      try {
        turn = await runModelTurn({
          ...turnOptions(messages),
          onRestart: () => text(`${atLineStart ? "" : "\n\n"}_(The connection to the model dropped; asking again.)_\n\n`),
        });
      } catch (error) {
        if (retried || !(error instanceof ModelTurnError) || error.failure.kind !== "context_length") throw error;
        input.logger?.warn("context length exceeded; trimming harder", { estimate, contextTokens });
        // The endpoint counts more than we do, or its window is smaller than configured.
        const stated = /maximum context length is (\d+)/i.exec(error.message);
        if (stated) contextTokens = Math.min(contextTokens, Number(stated[1]));
        meter.distrust();
        await fit(Math.floor(budget() * 0.7), 1);
        continue;
      }
      const taken = tokensTaken(turn, estimate, messages, tools);
      count(turn, estimate, taken !== null);
      if (taken === null) return turn;
      if (!warnedCut) {
        warnedCut = true;
        input.logger?.warn(
          "the model endpoint silently cut the prompt: it took far fewer tokens than were sent, so its context window is smaller than the run's. " +
            "For Ollama, set OLLAMA_CONTEXT_LENGTH on its server and MODEL_CONTEXT_TOKENS on this one to the same value",
          { model: input.model, estimate, promptTokens: taken, contextTokens },
        );
      }
      // The window is taken to be what the endpoint took, less a margin for tokenizers that differ from ours.
      promptCap = Math.min(promptCap, Math.floor(taken * 0.85));
      // The one retry is spent (on a context-length error, or on this cut): this answer stands, and the next
      // turn fits the cap.
      if (retried) return turn;
      // Its answer was written without the start of the conversation: it is not used.
      text(`${atLineStart ? "" : "\n\n"}_(The model's server cut the start of this conversation to fit its context window; asking again with a shorter one.)_\n\n`);
      await fit(Math.floor(budget() * 0.7), 1);
    }
  }

  async function loop(): Promise<AgentRunResult> {
    let lastStepMessages = 1;
    const stuck = new StuckDetector();
    let lengthCuts = 0;
    for (let stepNo = 1; ; stepNo++) {
      if (spentTokens >= limits.maxRunTokens) {
        return fail(`This run used its budget of ${limits.maxRunTokens.toLocaleString("en")} tokens and was ended. What was done so far is saved; send a message to continue.`);
      }
      const turn = await ask(lastStepMessages);

      if (turn.finishReason === "length" && (turn.toolCalls.length > 0 || turn.textCallCut)) {
        // A tool call cut by the output limit has broken arguments; running or retrying it would fail
        // the same way. The model is told to write smaller pieces instead.
        if (++lengthCuts >= MAX_LENGTH_CUTS) {
          return fail(`The model's replies were cut by its output limit ${MAX_LENGTH_CUTS} times in a row, so the run was stopped. Try a model with a larger output limit (MODEL_MAX_OUTPUT_TOKENS), or ask for a smaller change.`);
        }
        const names = [...new Set(turn.toolCalls.map((c) => c.name))].join(", ") || "a tool";
        messages.push({ role: "assistant", content: turn.text || "(reply cut off)", ...(turn.reasoning ? { reasoning: turn.reasoning } : {}) });
        messages.push({ role: "user", content: lengthCutNotice(names, limits.maxOutputTokens) });
        step(`Reply was cut at the output limit; asking for smaller pieces`, "completed");
        lastStepMessages = 2;
        continue;
      }
      lengthCuts = 0;

      if (turn.toolCalls.length === 0) {
        if (turn.finishReason === "length") text(`${atLineStart ? "" : "\n\n"}_(The model reached its output limit, so this answer may be incomplete.)_`);
        const followUp = input.beforeFinish ? await input.beforeFinish({ step, signal }) : null;
        if (followUp === null) return { status: "complete", usage };
        if (typeof followUp !== "string") return fail(followUp.fail);
        messages.push({ role: "assistant", content: turn.text || "(done)" }, { role: "user", content: followUp });
        lastStepMessages = 2;
        continue;
      }

      messages.push({ role: "assistant", content: turn.text, toolCalls: turn.toolCalls, ...(turn.reasoning ? { reasoning: turn.reasoning } : {}) });
      const round = [];
      for (const call of turn.toolCalls) {
        const tool = input.tools.find((t) => t.name === call.name);
        emit({ type: "tool_start", name: call.name, summary: previewSummary(tool, call.arguments) });
        const outcome = await executeToolCall(input.tools, call.name, call.arguments, toolContext);
        emit({ type: "tool_complete", name: call.name, summary: outcome.summary, result: clip(outcome.result, TOOL_RESULT_FOR_BADGE) });
        messages.push({ role: "tool", toolCallId: call.id, content: clip(outcome.result, TOOL_RESULT_FOR_MODEL) });
        round.push({ name: call.name, arguments: call.arguments, ok: outcome.ok, result: outcome.result });
        if (outcome.endsRun) return fail(outcome.endsRun);
      }
      lastStepMessages = 1 + turn.toolCalls.length;

      const stuckOn = stuck.round(round);
      if (stuckOn) return fail(stuckOn);
      if (stepNo >= limits.maxSteps) {
        return fail(
          `Stopped after ${limits.maxSteps} steps: the agent was still working. What was done so far is saved; send a message (for example "continue") to carry on.`,
        );
      }
    }
  }
}

function lengthCutNotice(names: string, maxOutputTokens: number): string {
  return (
    `Your last reply was cut off at the output limit (${maxOutputTokens} tokens) while writing a call to ${names}, so nothing was run. ` +
    "Do not repeat the same call. Write smaller pieces: split large files into several smaller modules, or write the " +
    "first part of the file with write_file and add the rest with further write_file calls using append: true, each well under the limit."
  );
}
