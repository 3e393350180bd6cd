import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { z } from "zod";
import { AppError } from "../lib/errors";
import { memoryWorkspace } from "../test/memory-workspace";
import type { ChatMessage } from "./chat-message";
import { runToolRound } from "./tool-round";
import { defineTool, type ToolContext } from "./tools/define-tool";

const ran: string[] = [];
const echo = defineTool({
  name: "echo",
  description: "Echoes its text",
  input: z.object({ text: z.string() }),
  summary: (i) => `echo ${i.text}`,
  async run(input) {
    ran.push(input.text);
    return { result: input.text };
  },
});
const limited = defineTool({
  name: "limited",
  description: "Refused by an account limit",
  input: z.object({}),
  summary: () => "limited",
  async run() {
    throw new AppError(429, "rate_limited", "Every sandbox you may run is busy.");
  },
});

function round() {
  const events: StreamEvent[] = [];
  const messages: ChatMessage[] = [];
  const context: ToolContext = { ...memoryWorkspace(), search: { kind: "none" }, fetch, signal: new AbortController().signal, step: () => {} };
  return { events, messages, o: { tools: [echo, limited], context, emit: (e: StreamEvent) => events.push(e), messages } };
}

describe("tool round", () => {
  test("calls run in order: a badge each, the result back to the model under its call id, the round for the stuck check", async () => {
    ran.length = 0;
    const { events, messages, o } = round();
    const result = await runToolRound(
      [
        { id: "a", name: "echo", arguments: '{"text":"one"}' },
        { id: "b", name: "echo", arguments: '{"text":"two"}' },
      ],
      o,
    );
    expect(ran).toEqual(["one", "two"]);
    expect(events).toEqual([
      { type: "tool_start", name: "echo", summary: "echo one" },
      { type: "tool_complete", name: "echo", summary: "echo one", result: "one" },
      { type: "tool_start", name: "echo", summary: "echo two" },
      { type: "tool_complete", name: "echo", summary: "echo two", result: "two" },
    ]);
    expect(messages).toEqual([
      { role: "tool", toolCallId: "a", content: "one" },
      { role: "tool", toolCallId: "b", content: "two" },
    ]);
    expect(result).toEqual({
      round: [
        { name: "echo", arguments: '{"text":"one"}', ok: true, result: "one" },
        { name: "echo", arguments: '{"text":"two"}', ok: true, result: "two" },
      ],
    });
  });

  test("a long result is clipped for the badge more than for the model; the stuck check sees it whole", async () => {
    const { events, messages, o } = round();
    const long = "x".repeat(30_000);
    const { round: calls } = await runToolRound([{ id: "a", name: "echo", arguments: JSON.stringify({ text: long }) }], o);
    const badge = events.find((e) => e.type === "tool_complete") as { result: string };
    expect(badge.result.length).toBeLessThan(2_100);
    expect(messages[0]!.content.length).toBeGreaterThan(19_000);
    expect(messages[0]!.content.length).toBeLessThan(20_100);
    expect(calls[0]!.result).toBe(long);
  });

  test("an account limit ends the round: its message is returned and later calls are not run", async () => {
    ran.length = 0;
    const { messages, o } = round();
    const result = await runToolRound(
      [
        { id: "a", name: "limited", arguments: "{}" },
        { id: "b", name: "echo", arguments: '{"text":"never"}' },
      ],
      o,
    );
    expect(result.endsRun).toBe("Every sandbox you may run is busy.");
    expect(ran).toEqual([]);
    expect(messages).toEqual([{ role: "tool", toolCallId: "a", content: "Error: Every sandbox you may run is busy." }]);
  });

  test("a call of an unknown tool or with broken arguments goes back to the model as an error, and the round goes on", async () => {
    ran.length = 0;
    const { messages, events, o } = round();
    const result = await runToolRound(
      [
        { id: "a", name: "nope", arguments: "{}" },
        { id: "b", name: "echo", arguments: '{"text":' },
        { id: "c", name: "echo", arguments: '{"text":"fine"}' },
      ],
      o,
    );
    expect(messages.map((m) => m.content.slice(0, 6))).toEqual(["Error:", "Error:", "fine"]);
    expect(result.round.map((c) => c.ok)).toEqual([false, false, true]);
    expect(events[2]).toEqual({ type: "tool_start", name: "echo", summary: "(invalid arguments)" });
  });
});
