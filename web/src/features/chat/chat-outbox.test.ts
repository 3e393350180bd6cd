import { afterEach, expect, test } from "bun:test";
import { chatOutbox, openChat, returnChatMessage, sendToChat, takeChatMessage } from "./chat-outbox";

test("a message for a chat being opened is queued per project, in order, and the chat is opened", async () => {
  let opened = 0;
  const openNow = () => opened++;
  await sendToChat("p1", "one", { openChat: openNow });
  await sendToChat("p1", "two", { openChat: openNow });
  await sendToChat("p2", "other", { openChat: openNow });
  expect(opened).toBe(3);
  expect(takeChatMessage("p1")).toBe("one");
  returnChatMessage("p1", "one");
  expect([takeChatMessage("p1"), takeChatMessage("p1"), takeChatMessage("p1")]).toEqual(["one", "two", null]);
  expect(takeChatMessage("p2")).toBe("other");
  expect(chatOutbox.get().size).toBe(0);
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

test("a message for a project whose chat is open is queued for it; with none open, the run is started from here", async () => {
  const close = openChat("p3");
  const again = openChat("p3");
  await sendToChat("p3", "while open");
  close();
  await sendToChat("p3", "still one open");
  expect([takeChatMessage("p3"), takeChatMessage("p3")]).toEqual(["while open", "still one open"]);
  again();

  // No chat open and none being opened: the message is posted as a chat turn and its stream let go (the run
  // goes on at the server; the chat reattaches to it when opened).
  const posted: Array<{ url: string; body: unknown }> = [];
  let cancelled = false;
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    posted.push({ url: String(input), body: JSON.parse(String(init.body)) });
    const body = new ReadableStream({ cancel: () => void (cancelled = true) });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
  await sendToChat("p3", "closed");
  expect(posted).toEqual([{ url: "/api/messages/stream", body: { projectId: "p3", content: "closed", enableReasoning: false } }]);
  expect(cancelled).toBe(true);
  expect(takeChatMessage("p3")).toBeNull();
});

test("each change to a project's queue tells the chats listening: a message queued, taken or put back", async () => {
  let told = 0;
  const stop = chatOutbox.subscribe(() => told++);
  await sendToChat("p4", "first", { openChat: () => {} });
  const text = takeChatMessage("p4");
  returnChatMessage("p4", text ?? "");
  expect(told).toBe(3);
  expect(takeChatMessage("p4")).toBe("first");
  stop();
});

test("a blank message is not queued (the chat would refuse it each time it was offered)", async () => {
  let opened = false;
  await sendToChat("p5", "  \n ", { openChat: () => (opened = true) });
  expect([opened, takeChatMessage("p5")]).toEqual([false, null]);
});
