import { describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import { type ChatAction, type ChatSession, idleChatSession, mayResume, reduceChatSession } from "./chat-session-reducer";
import { chatToasts } from "./chat-toasts";

const user: Message = {
  id: "pending-1",
  projectId: "p",
  role: "user",
  content: "Build a todo app",
  thinking: null,
  attachments: [],
  toolCalls: [],
  actions: [],
  createdAt: "2026-01-01T00:00:00Z",
};
const play = (actions: ChatAction[], from: ChatSession = idleChatSession) => actions.reduce(reduceChatSession, from);
const sent: ChatAction = { type: "sent", user, baseline: 2, hidden: false };

describe("reduceChatSession", () => {
  test("sending: the message is shown as the turn, with an empty answer and the history's length at the time", () => {
    const s = play([sent]);
    expect(s.phase).toBe("sending");
    expect(s.turn).toMatchObject({ user, baseline: 2, run: { content: "", done: false, status: "streaming" } });
  });

  test("streaming: the answer's stream opened, its events are folded into the live answer", () => {
    const s = play([
      sent,
      { type: "opened" },
      { type: "event", event: { type: "chunk", content: "Hel" } },
      { type: "event", event: { type: "chunk", content: "lo" } },
    ]);
    expect(s.phase).toBe("streaming");
    expect(s.turn?.run.content).toBe("Hello");
    expect(s.turn?.user).toBe(user);
  });

  test("attaching to a run already going streams at once, without a message of ours", () => {
    const s = play([
      { type: "attached", hidden: false },
      { type: "event", event: { type: "thinking", content: "hm" } },
    ]);
    expect(s).toMatchObject({ phase: "streaming", turn: { user: null, baseline: 0, run: { thinking: "hm" } } });
  });

  test("done: the turn ends, the live answer carries the run's status and the drop count starts again", () => {
    const streaming = play([sent, { type: "opened" }, { type: "event", event: { type: "done", status: "complete", messageId: "m1" } }]);
    expect(streaming.turn?.run).toMatchObject({ done: true, status: "complete", messageId: "m1" });
    const s = play([{ type: "ended", end: "done" }], { ...streaming, drops: 1 });
    expect(s).toMatchObject({ phase: "idle", turn: null, stopping: false, drops: 0 });
  });

  test("failed: an error event marks the live answer failed; the turn goes on until the stream ends", () => {
    const s = play([sent, { type: "opened" }, { type: "event", event: { type: "error", message: "Model unavailable" } }]);
    expect(s.phase).toBe("streaming");
    expect(s.turn?.run).toMatchObject({ status: "failed", error: "Model unavailable" });
  });

  test("dropped: the turn ends and counts a drop; the run is followed again after the first drop only", () => {
    const once = play([sent, { type: "opened" }, { type: "ended", end: "dropped" }]);
    expect(once).toMatchObject({ phase: "idle", turn: null, drops: 1 });
    expect(mayResume(once)).toBe(true);
    const twice = play(
      [
        { type: "attached", hidden: false },
        { type: "ended", end: "dropped" },
      ],
      once,
    );
    expect(twice.drops).toBe(2);
    expect(mayResume(twice)).toBe(false);
    // A new message starts the count again.
    expect(play([sent], twice).drops).toBe(0);
  });

  test("refused and abandoned: the turn ends and nothing else changes", () => {
    const before = { ...play([sent]), drops: 1 };
    for (const end of ["refused", "abandoned"] as const) {
      expect(play([{ type: "ended", end }], before)).toEqual({ ...idleChatSession, drops: 1 });
    }
  });

  test("stopping: asked while a turn is in flight; refused (nothing to stop yet) it is asked no more; the end clears it", () => {
    expect(play([{ type: "stop-asked" }]).stopping).toBe(false);
    const asked = play([sent, { type: "stop-asked" }]);
    expect(asked.stopping).toBe(true);
    expect(play([{ type: "stop-refused" }], asked).stopping).toBe(false);
    expect(play([{ type: "ended", end: "done" }], asked).stopping).toBe(false);
  });

  test("a tab hidden during a turn is remembered for that turn only; hidden while idle it is not", () => {
    expect(play([{ type: "tab-hidden" }]).hiddenDuringTurn).toBe(false);
    expect(play([sent, { type: "tab-hidden" }]).hiddenDuringTurn).toBe(true);
    expect(play([{ ...sent, hidden: true }]).hiddenDuringTurn).toBe(true);
    expect(play([sent, { type: "tab-hidden" }, { type: "ended", end: "done" }]).hiddenDuringTurn).toBe(false);
  });

  test("the note of a turn that ended while hidden is kept until shown, and a new turn drops it", () => {
    const note = chatToasts.doneWhileHidden();
    const kept = play([{ type: "note-kept", note }]);
    expect(kept.backgroundNote).toEqual(note);
    expect(play([{ type: "note-shown" }], kept).backgroundNote).toBeNull();
    expect(play([sent], kept).backgroundNote).toBeNull();
    expect(play([{ type: "attached", hidden: false }], kept).backgroundNote).toBeNull();
  });

  test("what changes nothing returns the same state (so the store tells no one)", () => {
    expect(play([{ type: "opened" }])).toBe(idleChatSession);
    expect(play([{ type: "event", event: { type: "chunk", content: "late" } }])).toBe(idleChatSession);
    expect(play([{ type: "note-shown" }])).toBe(idleChatSession);
    const streaming = play([sent, { type: "opened" }]);
    expect(play([{ type: "opened" }], streaming)).toBe(streaming);
  });
});

test("attaching to another member's run keeps who sent it; the turn's end forgets them", () => {
  let s = reduceChatSession(idleChatSession, { type: "attached", hidden: false, by: "Ana" });
  expect(s.phase).toBe("streaming");
  expect(s.turn).toMatchObject({ user: null, by: "Ana" });
  s = reduceChatSession(s, { type: "ended", end: "done" });
  expect(s.turn).toBeNull();
  expect(reduceChatSession(idleChatSession, { type: "attached", hidden: false }).turn).not.toHaveProperty("by");
});
