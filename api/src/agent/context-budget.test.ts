import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "./chat-message";
import { ContextBudget } from "./context-budget";
import { SUMMARY_HEADING } from "./context-window";
import type { ModelTurn } from "./model";

// One token per character, so the arithmetic reads plainly.
const chars = (t: string) => t.length;
const budget = (o: { contextTokens?: number; toolsText?: string } = {}) =>
  new ContextBudget({ contextTokens: o.contextTokens ?? 10_000, maxOutputTokens: 2_000, toolsText: o.toolsText ?? "t".repeat(100), countTokens: chars });

const big = "y".repeat(3_000);
const steps = (): ChatMessage[] => [
  { role: "system", content: "sys" },
  { role: "user", content: "go" },
  { role: "assistant", content: "first", toolCalls: [{ id: "1", name: "read_file", arguments: '{"path":"a"}' }] },
  { role: "tool", toolCallId: "1", content: big },
  { role: "assistant", content: "second", toolCalls: [{ id: "2", name: "read_file", arguments: '{"path":"b"}' }] },
  { role: "tool", toolCallId: "2", content: big },
  { role: "assistant", content: "third", toolCalls: [{ id: "3", name: "read_file", arguments: '{"path":"c"}' }] },
  { role: "tool", toolCallId: "3", content: big },
];
const turnWith = (promptTokens: number): ModelTurn => ({
  text: "",
  reasoning: "",
  toolCalls: [],
  finishReason: "stop",
  usage: { promptTokens, completionTokens: 1, totalTokens: promptTokens + 1 },
});

describe("context budget", () => {
  test("room: the window less the answer's room, the tool schemas and the framing; never below 1,000", () => {
    expect(budget().room()).toBe(10_000 - 2_000 - 100 - 64);
    expect(budget({ contextTokens: 2_500 }).room()).toBe(1_000);
  });

  test("a silent cut caps the room at 85% of what the endpoint took; a stated window lowers it and the meter counts more", () => {
    const b = budget();
    b.capAt(5_000);
    expect(b.room()).toBe(4_250 - 100 - 64);
    b.capAt(9_000); // a later, larger take does not raise the cap
    expect(b.promptCap).toBe(4_250);

    const stated = budget();
    stated.tooLong("This model's maximum context length is 6000 tokens. However, you requested 9000 tokens.");
    expect(stated.contextTokens).toBe(6_000);
    expect(stated.toolTokens()).toBe(125);
    expect(stated.room()).toBe(6_000 - 2_000 - 125 - 64);
    const unstated = budget();
    unstated.tooLong("prompt too long");
    expect(unstated.contextTokens).toBe(10_000);
  });

  test("fit: a conversation that fits is left alone; one that does not has old tool results shortened first", async () => {
    const b = budget();
    const messages = steps();
    let asked = 0;
    const summarise = async () => (asked++, "note");
    expect(await b.fit(messages, 20_000, 2, summarise)).toBe(false);
    expect(messages).toEqual(steps());

    expect(await b.fit(messages, 5_000, 2, summarise)).toBe(false);
    expect(asked).toBe(0);
    expect(messages[3]!.content).toContain("removed to fit the context window");
    expect(messages[7]!.content).toBe(big);
    expect(b.meter.messages(messages)).toBeLessThanOrEqual(5_000);
  });

  test("fit: when shortening is not enough, older steps are summarised (true), and the rest shortened to fit", async () => {
    const b = budget();
    const messages = steps();
    let transcript = "";
    const summarised = await b.fit(messages, 1_000, 2, async (t) => ((transcript = t), "Read a and b."));
    expect(summarised).toBe(true);
    expect(transcript).toContain("used read_file");
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(messages[2]!.content.startsWith(SUMMARY_HEADING)).toBe(true);
  });

  test("tokensTaken: a report far below what was sent is a cut; a close one, or none, is not", () => {
    const b = budget();
    const messages = steps();
    const tools = b.toolTokens();
    const estimate = b.meter.messages(messages) + tools;
    expect(b.tokensTaken(turnWith(Math.floor(estimate * 0.4)), estimate, messages, tools)).toBe(Math.floor(estimate * 0.4));
    expect(b.tokensTaken(turnWith(Math.floor(estimate * 0.9)), estimate, messages, tools)).toBeNull();
    expect(b.tokensTaken({ ...turnWith(1), usage: null }, estimate, messages, tools)).toBeNull();
  });
});

describe("the newest result", () => {
  const numbered = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(3)}\tconst line${i + 1} = ${i + 1};`).join("\n");
  const output = Array.from({ length: 400 }, (_, i) => `build output line ${i + 1}`).join("\n");
  const conversation = (content: string): ChatMessage[] => [
    { role: "system", content: "sys" },
    { role: "user", content: "go" },
    { role: "assistant", content: "", toolCalls: [{ id: "1", name: "read_file", arguments: '{"path":"a"}' }] },
    { role: "tool", toolCallId: "1", content },
  ];

  test("a result larger than the room left is clipped at a line end, with the line to read on from", () => {
    const b = budget();
    const messages = conversation(numbered);
    expect(b.clipNewest(messages, 3_000)).toBe(true);
    const text = messages[3]!.content;
    expect(b.meter.messages(messages)).toBeLessThanOrEqual(3_000);
    const lines = text.split("\n");
    const lastKept = Number(/^\s*(\d+)\t/.exec(lines.at(-2)!)![1]);
    expect(lines.at(-2)).toBe(`${String(lastKept).padStart(3)}\tconst line${lastKept} = ${lastKept};`);
    expect(lines.at(-1)).toBe(`… (${400 - lastKept} more lines left out to fit the model's context window; read on with startLine: ${lastKept + 1})`);
  });

  test("other output is clipped the same way, with a hint to narrow it; a result that fits is left alone", () => {
    const b = budget();
    const messages = conversation(output);
    b.clipNewest(messages, 2_000);
    expect(messages[3]!.content.split("\n").at(-1)).toContain("narrow the output");
    const small = conversation("ok");
    expect(b.clipNewest(small, 2_000)).toBe(false);
    expect(small[3]!.content).toBe("ok");
  });
});
