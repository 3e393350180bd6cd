/**
 * A shared project's chat keeps who asked: through the real app and a scripted model, the owner's and an
 * editor's messages come back from GET /api/messages/{id} (read here by a viewer) each with its sender's id
 * and name; answers carry no sender.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { messageListSchema } from "@shared/schemas/responses";
import { chatTestApp, readEvents } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { sharedProject } from "../test/members";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model });
}, 60_000);
afterAll(async () => {
  await t.close();
  await model.close();
});

test("each user message names the member who sent it", async () => {
  const [owner, editor, viewer] = ["own", "ed", "vi"].map((n) => t.user(`${n}${crypto.randomUUID().slice(0, 8)}`)) as [
    ReturnType<typeof t.user>,
    ReturnType<typeof t.user>,
    ReturnType<typeof t.user>,
  ];
  const id = await sharedProject(owner, { editor, viewer });
  for (const [who, content] of [
    [owner, "Build a todo app"],
    [editor, "Make it blue"],
  ] as const) {
    model.enqueue(turn.text("Done."));
    const res = await who.request("POST", "/api/messages/stream", { projectId: id, content });
    expect(res.status).toBe(200);
    await readEvents(res);
  }
  const res = await viewer.request("GET", `/api/messages/${id}`);
  const messages = messageListSchema.parse(await res.json());
  expect(messages.map((m) => [m.role, m.content, m.sender?.id ?? null])).toEqual([
    ["user", "Build a todo app", owner.uid],
    ["assistant", "Done.", null],
    ["user", "Make it blue", editor.uid],
    ["assistant", "Done.", null],
  ]);
  expect(messages[0]!.sender!.name).toMatch(/^own/);
  expect(messages[2]!.sender!.name).toMatch(/^ed/);
  expect(messages[1]!.sender).toBeUndefined();
});
