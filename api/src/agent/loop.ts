/**
 * The agent loop: ask the model, run the tools it calls, give it their results, and repeat until it
 * answers without tools. A step cap, a token budget, a time budget and a stuck detector end runaway loops
 * with a message; the conversation is kept inside the context window (`context-budget.ts`, asked through
 * `model-turns.ts`), the answer written by `step-writer.ts` and the tools run by `tool-round.ts`. It reports
 * everything as typed events and knows nothing of HTTP or the database.
 *
 * @example
 * const result = await runAgent({ client, model, messages, tools, toolContext, enableReasoning: false,
 *   signal, limits: DEFAULT_AGENT_LIMITS, emit: (event) => console.log(event) });
 */
import type { ModelGate } from "./model-gate";
import type { RunStatus, StreamEvent, TokenUsage } from "@shared/events/stream";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { AgentMetrics } from "./agent-metrics";
import type { AgentLimits } from "./agent-limits";
import type { ChatMessage } from "./chat-message";
import { ContextBudget } from "./context-budget";
import { EMPTY_AGAIN, IDLE_NUDGE, idleReply, isPlainQuestion } from "./idle-nudge";
import type { CountTokens } from "./context-window";
import type { ModelClient } from "./model";
import { ModelTurnError } from "./model-stream";
import { createModelTurns, type ModelTurns } from "./model-turns";
import { RunUsage } from "./run-usage";
import { createStepWriter, type StepWriter } from "./step-writer";
import { stubStaleContents } from "./stale-content";
import { StuckDetector } from "./stuck";
import { runToolRound } from "./tool-round";
import type { RunToolContext, Tool, ToolContext } from "./tools/define-tool";
import { toToolSpecs } from "./tools/registry";
import type { FinishCheck, FinishContext } from "./verify";

export { DEFAULT_AGENT_LIMITS, type AgentLimits } from "./agent-limits";

/** Replies cut by the output limit in a row before the run gives up (each got a "write smaller" step). */
const MAX_LENGTH_CUTS = 3;

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
  /** MODEL_MAX_CONCURRENCY's line for the model (none: no limit). */
  modelGate?: ModelGate;
  /** Where model errors, time to first token and queue waits are reported (nowhere when absent). */
  metrics?: AgentMetrics;
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
  const { limits, emit } = input;
  // Hidden tools (plan mode's refusals) are not offered, but a call to one written as text is still read, to refuse it.
  const toolSpecs = toToolSpecs(input.tools.filter((t) => !t.hidden));
  const textCallSpecs = toToolSpecs(input.tools);
  const budget = new ContextBudget({
    contextTokens: limits.contextTokens,
    maxOutputTokens: limits.maxOutputTokens,
    toolsText: JSON.stringify(toolSpecs),
    countTokens: input.countTokens,
  });
  const usage = new RunUsage(budget.meter);
  const writer = createStepWriter(emit);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new BudgetExceeded()), limits.maxRunMs);
  const signal = AbortSignal.any([input.signal, deadline.signal]);
  const fail = (message: string): AgentRunResult => {
    emit({ type: "error", message });
    return { status: "failed", usage: usage.usage, error: message };
  };

  let result: AgentRunResult;
  try {
    const turns = createModelTurns({ input, signal, writer, budget, usage, toolSpecs, textCallSpecs });
    result = await runTurns({ input, signal, writer, turns, usage, fail });
  } catch (error) {
    if (input.signal.aborted) result = { status: "stopped", usage: usage.usage };
    else if (deadline.signal.aborted) {
      result = fail(
        `This run reached its time limit of ${Math.round(limits.maxRunMs / 60_000)} min and was ended. What was done so far is saved; send a message to continue.`,
      );
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
  const actions = writer.completedActions();
  if (actions.length) emit({ type: "actions_completed", actions });
  emit({ type: "done", status: result.status, usage: result.usage });
  return result;
}

type TurnParts = {
  input: AgentRunInput;
  signal: AbortSignal;
  writer: StepWriter;
  turns: ModelTurns;
  usage: RunUsage;
  fail(message: string): AgentRunResult;
};

/** Model turn after model turn, each reply's tools run, until the model answers without tools (and the finish check agrees) or a limit ends the run. */
async function runTurns({ input, signal, writer, turns, usage, fail }: TurnParts): Promise<AgentRunResult> {
  const { limits, messages } = input;
  const toolContext: ToolContext = { ...input.toolContext, signal, step: writer.step, resultChars: turns.resultChars };
  let lastStepMessages = 1;
  const stuck = new StuckDetector();
  let lengthCuts = 0;
  // The request this run answers: a plain question is answered in words; anything else is work to do.
  const request = messages.findLast((m) => m.role === "user");
  const buildRequest = !request || !isPlainQuestion(request.content);
  let nudged = false;
  for (let stepNo = 1; ; stepNo++) {
    if (usage.spent >= limits.maxRunTokens) {
      return fail(
        `This run used its budget of ${limits.maxRunTokens.toLocaleString("en")} tokens and was ended. What was done so far is saved; send a message to continue.`,
      );
    }
    const turn = await turns.ask(lastStepMessages);

    if (turn.finishReason === "length" && (turn.toolCalls.length > 0 || turn.textCallCut)) {
      // A tool call cut by the output limit has broken arguments; running or retrying it would fail
      // the same way. The model is told to write smaller pieces instead.
      if (++lengthCuts >= MAX_LENGTH_CUTS) {
        return fail(
          `The model's replies were cut by its output limit ${MAX_LENGTH_CUTS} times in a row, so the run was stopped. Try a model with a larger output limit (MODEL_MAX_OUTPUT_TOKENS), or ask for a smaller change.`,
        );
      }
      const names = [...new Set(turn.toolCalls.map((c) => c.name))].join(", ") || "a tool";
      messages.push({ role: "assistant", content: turn.text || "(reply cut off)", ...(turn.reasoning ? { reasoning: turn.reasoning } : {}) });
      messages.push({ role: "user", content: lengthCutNotice(names, limits.maxOutputTokens) });
      writer.step(`Reply was cut at the output limit; asking for smaller pieces`, "completed");
      lastStepMessages = 2;
      continue;
    }
    lengthCuts = 0;

    if (turn.toolCalls.length === 0) {
      const idle = idleReply(turn.text, buildRequest);
      if (idle && !nudged) {
        nudged = true;
        messages.push({ role: "assistant", content: turn.text || "(no answer)" }, { role: "user", content: IDLE_NUDGE[idle].toModel });
        writer.step(IDLE_NUDGE[idle].step, "completed");
        lastStepMessages = 2;
        continue;
      }
      if (idle === "empty") return fail(EMPTY_AGAIN);
      if (turn.finishReason === "length") writer.notice("_(The model reached its output limit, so this answer may be incomplete.)_");
      const followUp = input.beforeFinish ? await input.beforeFinish({ step: writer.step, signal }) : null;
      if (followUp === null) return { status: "complete", usage: usage.usage };
      if (typeof followUp !== "string") return fail(followUp.fail);
      messages.push({ role: "assistant", content: turn.text || "(done)" }, { role: "user", content: followUp });
      lastStepMessages = 2;
      continue;
    }

    messages.push({ role: "assistant", content: turn.text, toolCalls: turn.toolCalls, ...(turn.reasoning ? { reasoning: turn.reasoning } : {}) });
    const { round, endsRun } = await runToolRound(turn.toolCalls, { tools: input.tools, context: toolContext, emit: input.emit, messages });
    if (endsRun) return fail(endsRun);
    lastStepMessages = 1 + turn.toolCalls.length;
    stubStaleContents(messages);

    const verdict = stuck.round(round);
    if (verdict && "stop" in verdict) return fail(verdict.stop);
    if (verdict) {
      // Told beside the newest result (a message of its own after tool results confuses some templates).
      const last = messages.at(-1);
      if (last?.role === "tool") last.content += `\n\n${verdict.nudge}`;
      writer.step("The model was repeating the same calls; told it to move on", "completed");
    }
    if (stepNo >= limits.maxSteps) {
      return fail(
        `Stopped after ${limits.maxSteps} steps: the agent was still working. What was done so far is saved; send a message (for example "continue") to carry on.`,
      );
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
