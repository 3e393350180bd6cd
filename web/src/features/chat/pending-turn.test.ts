import { describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import { emptyLiveRun } from "./live-run";
import { IMAGE_ONLY_CONTENT } from "@shared/constants";
import { messageContent, type PendingTurn, visibleHistory } from "./pending-turn";

const msg = (id: string, role: Message["role"], extra: Partial<Message> = {}): Message => ({
  id,
  projectId: "p",
  role,
  content: id,
  thinking: null,
  attachments: [],
  toolCalls: [],
  actions: [],
  createdAt: "2026-01-01T00:00:00Z",
  ...extra,
});

describe("messageContent", () => {
  test("trimmed text, '(Image uploaded)' for images alone, null for nothing", () => {
    expect(messageContent("  hi \n", 0)).toBe("hi");
    expect(messageContent("   ", 2)).toBe(IMAGE_ONLY_CONTENT);
    expect(IMAGE_ONLY_CONTENT).toBe("(Image uploaded)");
    expect(messageContent(" \n ", 0)).toBeNull();
    expect(messageContent("look", 1)).toBe("look");
  });
});

describe("visibleHistory", () => {
  const history = [msg("u1", "user"), msg("a1", "assistant")];
  const pending: PendingTurn = { user: msg("pending", "user"), baseline: 2, run: emptyLiveRun() };

  test("without a turn in flight, the history as it is", () => {
    expect(visibleHistory(history, null)).toEqual({ messages: history, showPendingUser: false });
  });

  test("the optimistic user message shows until the history holds the real one", () => {
    expect(visibleHistory(history, pending).showPendingUser).toBe(true);
    // Refetched mid-run: the user's message and the assistant's running copy are now stored.
    const refetched = [...history, msg("u2", "user"), msg("a2", "assistant", { status: "running" })];
    const view = visibleHistory(refetched, pending);
    expect(view.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2"]);
    expect(view.showPendingUser).toBe(false);
  });

  test("the saved copy of a finished live answer is hidden until the turn is cleared", () => {
    const done: PendingTurn = { ...pending, run: { ...emptyLiveRun(), done: true, messageId: "a2" } };
    const refetched = [...history, msg("u2", "user"), msg("a2", "assistant", { status: "complete" })];
    expect(visibleHistory(refetched, done).messages.map((m) => m.id)).toEqual(["u1", "a1", "u2"]);
  });

  test("attached to a run started elsewhere: no optimistic message", () => {
    const resumed: PendingTurn = { user: null, baseline: 0, run: emptyLiveRun() };
    expect(visibleHistory(history, resumed).showPendingUser).toBe(false);
  });
});
