/** A run's events with secret values hidden: deltas held back across events, order kept, other events walked. */
import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { createEventRedactor } from "./redacted-events";

const secrets = [{ name: "API_KEY", value: "sk-live-123456" }];
const run = (events: StreamEvent[]) => {
  const redact = createEventRedactor(() => secrets);
  return [...events.flatMap((e) => redact.event(e)), ...redact.end()];
};
const text = (events: StreamEvent[]) => events.map((e) => (e.type === "chunk" ? e.content : "")).join("");

describe("createEventRedactor", () => {
  test("a value split across answer deltas never shows in any event", () => {
    const out = run([
      { type: "chunk", content: "Your key sk-li" },
      { type: "chunk", content: "ve-12" },
      { type: "chunk", content: "3456 works" },
    ]);
    expect(text(out)).toBe("Your key [secret API_KEY] works");
    for (const e of out) expect(JSON.stringify(e)).not.toContain("sk-li");
  });

  test("held-back text goes out before the next other event, keeping the order", () => {
    const out = run([
      { type: "chunk", content: "see sk-l" },
      { type: "tool_start", name: "run_shell", summary: "echo $API_KEY" },
      { type: "tool_complete", name: "run_shell", summary: "echo", result: "stdout:\nsk-live-123456" },
      { type: "done", status: "complete" },
    ]);
    expect(out.map((e) => e.type)).toEqual(["chunk", "chunk", "tool_start", "tool_complete", "done"]);
    expect(out[1]).toEqual({ type: "chunk", content: "sk-l" });
    expect(out[3]).toEqual({ type: "tool_complete", name: "run_shell", summary: "echo", result: "stdout:\n[secret API_KEY]" });
  });

  test("reasoning is its own stream; step lines are redacted whole", () => {
    const out = run([
      { type: "thinking", content: "the key sk-live-" },
      { type: "thinking", content: "123456 is set" },
      { type: "chunk", content: "Ran sk-live-123456\n", step: "completed" },
    ]);
    expect(out).toEqual([
      { type: "thinking", content: "the key " },
      { type: "thinking", content: "[secret API_KEY] is set" },
      { type: "chunk", content: "Ran [secret API_KEY]\n", step: "completed" },
    ]);
  });
});
