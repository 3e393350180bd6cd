/**
 * A run's requests to the model: each turn is fitted into the context budget first; a context-length error,
 * or a reply showing the endpoint silently cut the prompt, trims harder and asks once more. Older steps are
 * summarised by the model itself when shortening is not enough. Tokens are counted into the run's usage.
 *
 * @example
 * const turns = createModelTurns({ input, signal, writer, budget, usage, toolSpecs });
 * const turn = await turns.ask(1);
 */
import type { ChatMessage, ToolSpec } from "./chat-message";
import { SUMMARY_PROMPT } from "./context-window";
import type { ContextBudget } from "./context-budget";
import type { AgentRunInput } from "./loop";
import type { ModelTurn } from "./model";
import { ModelTurnError, runModelTurn, type ModelTurnOptions } from "./model-stream";
import type { RunUsage } from "./run-usage";
import type { StepWriter } from "./step-writer";

export type ModelTurns = {
  /** One model turn at the conversation as it stands, keeping its last `keepLast` messages whole. */
  ask(keepLast: number): Promise<ModelTurn>;
  /** Characters the next tool result may take to fit the window (read_file pages by it). */
  resultChars(): number;
};

type Parts = {
  input: Pick<AgentRunInput, "client" | "model" | "messages" | "enableReasoning" | "limits" | "emit" | "logger" | "modelGate" | "metrics">;
  signal: AbortSignal;
  writer: StepWriter;
  budget: ContextBudget;
  usage: RunUsage;
  toolSpecs: ToolSpec[];
  /** The tools whose calls written as text are read (default: those offered). */
  textCallSpecs?: ToolSpec[];
};

const CUT_NOTICE = "_(The model's server cut the start of this conversation to fit its context window; asking again with a shorter one.)_\n\n";
const RESTART_NOTICE = "_(The connection to the model dropped; asking again.)_\n\n";

export function createModelTurns({ input, signal, writer, budget, usage, toolSpecs, textCallSpecs }: Parts): ModelTurns {
  const { limits, messages } = input;
  let warnedCut = false;

  function options(list: ChatMessage[]): ModelTurnOptions {
    return {
      client: input.client,
      model: input.model,
      messages: list,
      tools: toolSpecs,
      textCallTools: textCallSpecs,
      enableReasoning: input.enableReasoning,
      maxOutputTokens: limits.maxOutputTokens,
      signal,
      idleTimeoutMs: limits.idleTimeoutMs,
      maxRetries: limits.maxRetries,
      maxRetryWaitMs: limits.maxRetryWaitMs,
      backoffBaseMs: limits.backoffBaseMs,
      onText: writer.text,
      onThinking: (content: string) => input.emit({ type: "thinking", content }),
      onRetry: (failure, waitMs, attempt) => input.logger?.warn("model call failed; retrying", { kind: failure.kind, waitMs, attempt }),
      onFailure: (failure) => input.metrics?.modelError(failure.kind),
      onFirstOutput: (seconds) => input.metrics?.firstToken(seconds),
    };
  }

  /**
   * One request to the model, in MODEL_MAX_CONCURRENCY's line for it when there is one: the run is told its
   * place while it waits (`queued`), and the place is given up when the answer is in (or failed).
   */
  async function request(o: ModelTurnOptions): Promise<ModelTurn> {
    const queued = performance.now();
    const release = await input.modelGate?.acquire(input.model, signal, (position) => input.emit({ type: "queued", position }));
    if (input.modelGate) input.metrics?.queueWait((performance.now() - queued) / 1000);
    try {
      return await runModelTurn(o);
    } finally {
      release?.();
    }
  }

  async function summarise(transcript: string): Promise<string> {
    const messagesFor: ChatMessage[] = [
      { role: "system", content: SUMMARY_PROMPT },
      { role: "user", content: transcript },
    ];
    const turn = await request({
      ...options(messagesFor),
      tools: [],
      textCallTools: [],
      enableReasoning: false,
      maxOutputTokens: Math.min(limits.maxOutputTokens, 1_024),
      onText: () => {},
      onThinking: () => {},
    });
    usage.count(turn, budget.meter.messages(messagesFor));
    return turn.text;
  }

  async function fit(room: number, keepLast: number): Promise<void> {
    if (await budget.fit(messages, room, keepLast, summarise)) writer.step("Summarised earlier steps to fit the context window", "completed");
    // Still over: the newest results themselves are too large for the window; they are clipped by lines.
    budget.clipNewest(messages, room);
  }

  async function ask(keepLast: number): Promise<ModelTurn> {
    const turn = await askOnce(keepLast, limits.maxOutputTokens);
    if (!spentOnThinking(turn)) return turn;
    // A reasoning model spent the whole output limit thinking and wrote nothing: asked once more with more
    // room (as much as the window leaves, up to twice the limit); an empty answer is never a finished run.
    const prompt = budget.meter.messages(messages) + budget.toolTokens();
    const more = Math.min(limits.maxOutputTokens * 2, budget.contextTokens - prompt - 64);
    if (more >= limits.maxOutputTokens * 1.25) {
      writer.step(
        `The model used its whole output limit (${limits.maxOutputTokens.toLocaleString("en")} tokens) thinking; asking again with more room`,
        "completed",
      );
      const again = await askOnce(keepLast, more);
      if (!spentOnThinking(again)) return again;
    }
    const message =
      `The model used its whole output limit (${limits.maxOutputTokens.toLocaleString("en")} tokens${more > limits.maxOutputTokens * 1.25 ? `, then ${more.toLocaleString("en")}` : ""}) on reasoning and wrote no answer. ` +
      "Raise MODEL_MAX_OUTPUT_TOKENS (and the model's context window, MODEL_CONTEXT_TOKENS, to make room for it), or turn reasoning off.";
    throw new ModelTurnError(message, { kind: "client", message, retryable: false });
  }

  async function askOnce(keepLast: number, maxOutputTokens: number): Promise<ModelTurn> {
    await fit(budget.room(), keepLast);
    for (let retried = false; ; retried = true) {
      // Counted once per request: the tool schemas are large, and the meter's scale changes only between requests.
      const tools = budget.toolTokens();
      const estimate = budget.meter.messages(messages) + tools;
      let turn: ModelTurn;
      try {
        turn = await request({ ...options(messages), maxOutputTokens, onRestart: () => writer.notice(RESTART_NOTICE) });
      } catch (error) {
        if (retried || !(error instanceof ModelTurnError) || error.failure.kind !== "context_length") throw error;
        input.logger?.warn("context length exceeded; trimming harder", { estimate, contextTokens: budget.contextTokens });
        budget.tooLong(error.message);
        await fit(Math.floor(budget.room() * 0.7), 1);
        continue;
      }
      const taken = budget.tokensTaken(turn, estimate, messages, tools);
      usage.count(turn, estimate, taken !== null);
      if (taken === null) return turn;
      if (!warnedCut) {
        warnedCut = true;
        input.logger?.warn(
          "the model endpoint silently cut the prompt: it took far fewer tokens than were sent, so its context window is smaller than the run's. " +
            "For Ollama, set OLLAMA_CONTEXT_LENGTH on its server and MODEL_CONTEXT_TOKENS on this one to the same value",
          { model: input.model, estimate, promptTokens: taken, contextTokens: budget.contextTokens },
        );
      }
      budget.capAt(taken);
      // The one retry is spent (on a context-length error, or on this cut): this answer stands, and the next
      // turn fits the cap.
      if (retried) return turn;
      // Its answer was written without the start of the conversation: it is not used.
      writer.notice(CUT_NOTICE);
      await fit(Math.floor(budget.room() * 0.7), 1);
    }
  }

  return { ask, resultChars: () => budget.resultChars(messages) };
}

/** A reply cut by the output limit with nothing in it but reasoning (shown or hidden). */
const spentOnThinking = (turn: ModelTurn) => turn.finishReason === "length" && turn.toolCalls.length === 0 && !turn.textCallCut && !turn.text.trim();
