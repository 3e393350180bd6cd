/** A scripted turn played as one non-streamed chat completion. */
import { sleep } from "./chunks";
import type { FakeTurn } from "./types";

export async function wholeTurn(id: string, model: string, t: Extract<FakeTurn, { kind: "stream" }>) {
  let content = "";
  let reasoning = "";
  const toolCalls: unknown[] = [];
  let usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
  for (const step of t.steps) {
    if ("delayMs" in step) await sleep(step.delayMs);
    else if ("text" in step) content += typeof step.text === "function" ? step.text() : step.text;
    else if ("reasoning" in step) reasoning += step.reasoning;
    else if ("toolCalls" in step) {
      for (const call of step.toolCalls) {
        toolCalls.push({
          id: call.id ?? `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
          type: "function",
          function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
        });
      }
    } else if ("usage" in step) usage = { ...step.usage, total_tokens: step.usage.prompt_tokens + step.usage.completion_tokens };
    else if ("streamError" in step || "cut" in step || "hang" in step) {
      throw new Error("fake model: streamError/cut/hang steps only make sense in streamed replies");
    }
  }
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: content || null,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: t.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
      },
    ],
    ...(usage ? { usage } : {}),
  };
}
