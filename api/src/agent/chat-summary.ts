/**
 * A chat grown past the context window keeps its older part as a model-written note, stored through the
 * `ConversationSource` and reused by later runs, instead of silently dropping the oldest messages. A
 * later summary folds the earlier one in, so there is only ever one note per project.
 *
 * @example
 * const content = await summariseChat({ client, model, previous: loaded.summary, omitted, signal, limits });
 */
import type { Message } from "@shared/schemas/message";
import type { ModelClient } from "./model";
import { runModelTurn } from "./model-stream";
import { transcriptOf } from "./history";
import type { AgentLimits } from "./loop";
import type { ConversationSummary } from "./ports";

const CHAT_SUMMARY_PROMPT =
  "You compress the older part of a chat between a user and an AI app builder so the builder can continue without it. " +
  "Write a compact note (at most 300 words): what the user asked for and decided, what was built (files, commands, " +
  "the app's state), problems still open. Plain sentences, no tool-call syntax, no code.";

export async function summariseChat(o: {
  client: ModelClient;
  model: string;
  previous: ConversationSummary | null | undefined;
  omitted: Message[];
  signal: AbortSignal;
  limits: AgentLimits;
}): Promise<string> {
  const earlier = o.previous ? `Earlier summary:\n${o.previous.content}\n\n` : "";
  // Characters, roughly three per token: the summariser's own request must fit the window too.
  const room = Math.max(4_000, (o.limits.contextTokens - 1_500) * 3);
  let transcript = transcriptOf(o.omitted);
  if (earlier.length + transcript.length > room) transcript = `…\n${transcript.slice(-(room - earlier.length))}`;
  const turn = await runModelTurn({
    client: o.client,
    model: o.model,
    messages: [
      { role: "system", content: CHAT_SUMMARY_PROMPT },
      { role: "user", content: `${earlier}Messages to summarise:\n${transcript}` },
    ],
    tools: [],
    enableReasoning: false,
    maxOutputTokens: Math.min(o.limits.maxOutputTokens, 1_024),
    contextTokens: o.limits.contextTokens,
    signal: o.signal,
    idleTimeoutMs: o.limits.idleTimeoutMs,
    maxRetries: o.limits.maxRetries,
    maxRetryWaitMs: o.limits.maxRetryWaitMs,
    backoffBaseMs: o.limits.backoffBaseMs,
    onText: () => {},
    onThinking: () => {},
  });
  return turn.text.trim();
}
