/**
 * A scripted turn played as a streamed reply (server-sent chunks), with the `repeatToolName` and
 * `repeatToolArguments` modes and the scripted failures (stream errors, cuts, hangs).
 */
import type { ServerResponse } from "node:http";
import { sleep, split } from "./chunks";
import type { FakeServerMode, FakeToolCall, FakeTurn } from "./types";

type Delta = Record<string, unknown>;

function chunk(id: string, model: string, delta: Delta, finishReason: string | null = null) {
  return { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

function toolCallChunks(calls: FakeToolCall[], startIndex: number, mode: FakeServerMode = {}): Delta[] {
  const deltas: Delta[] = [];
  calls.forEach((call, i) => {
    const index = startIndex + i;
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    const id = call.id ?? `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
    // First chunk: id, type and name with empty arguments, as OpenAI sends it; then argument fragments.
    deltas.push({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] });
    const parts = mode.repeatToolArguments ? [args, args, args] : split(args, call.chunkSize ?? 7);
    const name = mode.repeatToolName ? { name: call.name } : {};
    for (const part of parts) deltas.push({ tool_calls: [{ index, function: { ...name, arguments: part } }] });
  });
  return deltas;
}

export async function streamTurn(
  res: ServerResponse,
  id: string,
  model: string,
  t: Extract<FakeTurn, { kind: "stream" }>,
  mode: FakeServerMode = {},
): Promise<void> {
  let toolIndex = 0;
  let usedTools = false;
  res.socket?.setNoDelay(true); // each chunk goes out when written, as a real model server's do
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  send(chunk(id, model, { role: "assistant", content: "" }));
  for (const step of t.steps) {
    if (res.destroyed) return;
    if ("delayMs" in step) await sleep(step.delayMs);
    else if ("text" in step) {
      const text = typeof step.text === "function" ? step.text() : step.text;
      for (const part of split(text, step.chunkSize ?? 5)) send(chunk(id, model, { content: part }));
    } else if ("reasoning" in step) {
      for (const part of split(step.reasoning, step.chunkSize ?? 5)) send(chunk(id, model, { [step.field ?? "reasoning_content"]: part }));
    } else if ("toolCalls" in step) {
      for (const delta of toolCallChunks(step.toolCalls, toolIndex, mode)) send(chunk(id, model, delta));
      toolIndex += step.toolCalls.length;
      usedTools = true;
    } else if ("usage" in step) {
      const u = step.usage;
      send({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: { ...u, total_tokens: u.prompt_tokens + u.completion_tokens } });
    } else if ("streamError" in step) {
      send({ error: { message: step.streamError.message, type: step.streamError.type ?? "server_error", code: step.streamError.code ?? null } });
      res.end();
      return;
    } else if ("cut" in step) {
      // FIN without the chunked terminator: the client gets what was sent, then a body that ended early.
      // The pause lets the client take in the response first (a close racing the headers reads as a
      // refused request instead of a cut).
      await new Promise((r) => res.write("", r));
      await sleep(20);
      res.socket?.end();
      return;
    } else if ("hang" in step) {
      return; // never ends; the client must give up (close() drops the connection)
    }
  }
  send(chunk(id, model, {}, t.finishReason ?? (usedTools ? "tool_calls" : "stop")));
  res.end("data: [DONE]\n\n");
}
