/**
 * The `contextWindow` and `silentWindow` modes: how the fake counts a prompt, what a silently truncating
 * server keeps of it, and the usage such servers report.
 */
import type { ChatRequestBody, FakeServerMode, FakeTurn } from "./types";

/** How the fake server counts a prompt's tokens in `contextWindow` mode (deliberately not the client's way). */
export const fakePromptTokens = (body: ChatRequestBody) => Math.ceil(JSON.stringify(body.messages).length / 3 + JSON.stringify(body.tools ?? []).length / 3);

/**
 * The request as a server that silently truncates sees it: its oldest messages dropped (system messages and
 * the last message always kept) until the prompt fits `window`. The same body when it already fits.
 */
export function cutToWindow(body: ChatRequestBody, window: number): ChatRequestBody {
  if (fakePromptTokens(body) <= window) return body;
  const messages = [...body.messages];
  for (let i = 0; i < messages.length - 1 && fakePromptTokens({ ...body, messages }) > window; ) {
    if (messages[i]!.role === "system") i++;
    else messages.splice(i, 1);
  }
  return { ...body, messages };
}

/**
 * In either window mode the reply reports the prompt's tokens as usage (so the client can calibrate), unless the
 * turn scripts its own: with `silentWindow`, the tokens of what was kept.
 */
export function withPromptUsage(
  next: Extract<FakeTurn, { kind: "stream" }>,
  seen: ChatRequestBody,
  mode: FakeServerMode,
): Extract<FakeTurn, { kind: "stream" }> {
  const reportsUsage = mode.contextWindow || mode.silentWindow;
  return reportsUsage && !next.steps.some((st) => "usage" in st)
    ? {
        ...next,
        steps: [...next.steps, { usage: { prompt_tokens: Math.min(fakePromptTokens(seen), mode.silentWindow ?? Infinity), completion_tokens: 10 } }],
      }
    : next;
}
