import { describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import { roughTokens } from "./context-window";
import { buildHistory } from "./history";

let n = 0;
const msg = (role: "user" | "assistant", content: string, extra: Partial<Message> = {}): Message => ({
  id: `m${++n}`,
  projectId: "p",
  role,
  content,
  thinking: null,
  attachments: [],
  toolCalls: [],
  actions: [],
  createdAt: new Date(2024, 0, 1, 0, 0, n).toISOString(),
  ...extra,
});
const tool = (name: string, summary: string, result: string) => ({ name, summary, status: "completed" as const, result });
const text = (m: { content?: unknown }) => String(m.content);

describe("history for the model", () => {
  test("fits: every message, tool results inline as text, images mentioned", () => {
    const h = buildHistory(
      [
        msg("user", "Make a page", { attachments: ["/api/upload/image/x/a.png"] }),
        msg("assistant", "Done.", { toolCalls: [tool("write_file", "index.html", "Created index.html (10 bytes).")] }),
      ],
      10_000,
    );
    expect(h.omittedMessages).toBe(0);
    expect(h.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(text(h.messages[0]!)).toBe("Make a page\n[1 image attached]");
    expect(text(h.messages[1]!)).toContain("- Used write file on index.html. Result: Created index.html (10 bytes).");
    // Never in a call-like syntax the model would imitate as text.
    expect(text(h.messages[1]!)).not.toMatch(/write_file\(|"name"\s*:|<tool_call>/);
  });

  test("over budget: the oldest tool results go first, then the oldest messages", () => {
    const big = "x".repeat(4_000); // shown clipped to 2,000 characters (~500 tokens) each
    const history = [
      msg("user", "first"),
      msg("assistant", "a1", { toolCalls: [tool("read_file", "old.ts", big)] }),
      msg("user", "second"),
      msg("assistant", "a2", { toolCalls: [tool("read_file", "new.ts", big)] }),
    ];
    const all = buildHistory(history, 100_000);
    const full = all.messages.reduce((s, m) => s + roughTokens(text(m)) + 4, 0);

    // Room for everything but one big result: the old one is dropped, the newer kept.
    const oneTrimmed = buildHistory(history, full - 200);
    expect(oneTrimmed.omittedToolResults).toBe(1);
    expect(oneTrimmed.omittedMessages).toBe(0);
    expect(text(oneTrimmed.messages[1]!)).toContain("- Used read file on old.ts (result left out to save space).");
    expect(text(oneTrimmed.messages[3]!)).toContain(big.slice(0, 100));

    // Very little room: results gone, then the oldest messages, still opening with a user message.
    const tiny = buildHistory(history, 40);
    expect(tiny.omittedToolResults).toBe(2);
    expect(tiny.omittedMessages).toBe(2);
    expect(tiny.messages.map((m) => [m.role, text(m).split("\n")[0]])).toEqual([
      ["user", "second"],
      ["assistant", "a2"],
    ]);
  });

  test("roles alternate: consecutive messages of one role are merged, a leading assistant message dropped", () => {
    const h = buildHistory([msg("assistant", "orphan"), msg("user", "u1"), msg("user", "u2"), msg("assistant", "a")], 10_000);
    expect(h.messages.map((m) => [m.role, text(m)])).toEqual([
      ["user", "u1\n\nu2"],
      ["assistant", "a"],
    ]);
  });
});
