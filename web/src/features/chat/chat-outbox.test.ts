import { expect, test } from "bun:test";
import { queueChatMessage, returnChatMessage, subscribeChatOutbox, takeChatMessage } from "./chat-outbox";

test("messages are taken per project in order, told to listeners, and can be put back first", () => {
  let told = 0;
  const stop = subscribeChatOutbox(() => told++);
  queueChatMessage("p1", "one");
  queueChatMessage("p1", "two");
  queueChatMessage("p2", "other");
  expect(told).toBe(3);
  expect(takeChatMessage("p1")).toBe("one");
  returnChatMessage("p1", "one");
  expect([takeChatMessage("p1"), takeChatMessage("p1"), takeChatMessage("p1")]).toEqual(["one", "two", null]);
  expect(takeChatMessage("p2")).toBe("other");
  stop();
  queueChatMessage("p3", "x");
  expect(told).toBe(3);
  expect(takeChatMessage("p3")).toBe("x");
});

test("a message put back after its chat went away wakes the chat listening now; a retry of the same chat does not", () => {
  let told = 0;
  const stop = subscribeChatOutbox(() => told++);
  returnChatMessage("p4", "busy, later");
  expect(told).toBe(0);
  returnChatMessage("p4", "abandoned", { notify: true });
  expect(told).toBe(1);
  expect([takeChatMessage("p4"), takeChatMessage("p4"), takeChatMessage("p4")]).toEqual(["abandoned", "busy, later", null]);
  stop();
});
