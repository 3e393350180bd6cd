import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "./chat-message";
import { looksCut, shortenOldSteps, summariseOlderSteps, SUMMARY_HEADING, TokenMeter } from "./context-window";

const big = "y".repeat(8_000);
const steps = (): ChatMessage[] => [
  { role: "system", content: "sys" },
  { role: "user", content: "go" },
  { role: "assistant", content: "first", toolCalls: [{ id: "1", name: "write_file", arguments: JSON.stringify({ path: "src/a.ts", content: big }) }] },
  { role: "tool", toolCallId: "1", content: "Created src/a.ts (8000 bytes)." },
  { role: "assistant", content: "second", toolCalls: [{ id: "2", name: "read_file", arguments: '{"path":"src/a.ts"}' }] },
  { role: "tool", toolCallId: "2", content: big },
  { role: "assistant", content: "third", toolCalls: [{ id: "3", name: "read_file", arguments: '{"path":"src/a.ts"}' }] },
  { role: "tool", toolCallId: "3", content: big },
];

describe("context window", () => {
  test("the meter learns the endpoint's count from reported usage, never counting below our tokenizer", () => {
    const meter = new TokenMeter((t) => t.length);
    expect(meter.text("abcd")).toBe(4);
    meter.calibrate(100, 200);
    expect(meter.text("abcd")).toBe(8); // a higher count is taken at once (the safe side)
    meter.calibrate(200, 150);
    expect(meter.text("abcd")).toBe(7); // a lower one halfway: ratio 2 → 1.75
    meter.calibrate(100, 400);
    expect(meter.text("abcd")).toBeGreaterThan(8);
    const low = new TokenMeter((t) => t.length);
    low.calibrate(100, 10);
    expect(low.text("abcd")).toBe(4);
  });

  test("a silent cut is read from usage far below our count, never from small prompts, other tokenizers or a missing count", () => {
    expect(looksCut(10_000, 4_096)).toBe(true);
    expect(looksCut(10_000, 8_000)).toBe(false); // a thriftier tokenizer, not a cut
    expect(looksCut(10_000, 12_000)).toBe(false);
    expect(looksCut(800, 100)).toBe(false); // too small to tell
    expect(looksCut(10_000, 0)).toBe(false); // servers that report 0 for a cached prompt
    // Below what a cut keeps (system prompt, tool schemas, last message): a count of something else.
    expect(looksCut(10_000, 4_096, 3_000)).toBe(true);
    expect(looksCut(10_000, 500, 3_000)).toBe(false);
  });

  test("old tool results and old write_file contents are shortened first (path and size kept), the latest step kept", () => {
    const messages = steps();
    const meter = new TokenMeter();
    expect(shortenOldSteps(messages, 3_000, 2, meter)).toBe(2);
    const write = JSON.parse((messages[2] as Extract<ChatMessage, { role: "assistant" }>).toolCalls![0]!.arguments);
    expect(write).toEqual({ path: "src/a.ts", content: "[8000 bytes written; content omitted to save space, read_file shows it]" });
    expect(messages[5]!.content).toContain("removed to fit the context window");
    expect(messages[7]!.content).toBe(big);
    expect(meter.messages(messages)).toBeLessThanOrEqual(3_000);
  });

  test("older steps become one model-written note at the head of the first kept step; pairs stay intact", async () => {
    const messages = steps();
    let transcript = "";
    const done = await summariseOlderSteps(messages, 2, async (t) => ((transcript = t), "Wrote src/a.ts and read it."), 50_000);
    expect(done).toBe(true);
    expect(transcript).toContain("used write_file");
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(messages[2]!.content).toBe(`${SUMMARY_HEADING}\nWrote src/a.ts and read it.\n\nthird`);
    expect((messages[2] as Extract<ChatMessage, { role: "assistant" }>).toolCalls![0]!.id).toBe("3");
    // Nothing older left: nothing to do.
    expect(await summariseOlderSteps(messages, 2, async () => "x", 50_000)).toBe(false);
  });
});
