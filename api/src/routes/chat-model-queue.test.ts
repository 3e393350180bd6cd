/**
 * MODEL_MAX_CONCURRENCY through the real chat route and the scripted model server: with a limit of 1, a second
 * answer waits for the first one's request to finish, its stream says "queued" with its place in line, then
 * goes ahead; a third waits behind it. The model server never sees two requests at once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { chatTestApp, readEvents, textOf } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model, env: { MODEL_MAX_CONCURRENCY: "1" } });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});

test("past MODEL_MAX_CONCURRENCY answers wait in order, told their place in line, and the model gets one request at a time", async () => {
  let open = 0;
  let most = 0;
  const spans: [number, number][] = [];
  // Each answer: one slow reply, counted while it streams.
  model.respondWith(() => {
    const start = Date.now();
    open++;
    most = Math.max(most, open);
    return turn.steps(
      { text: "Answer" },
      { delayMs: 1_500 },
      {
        text: () => {
          open--;
          spans.push([start, Date.now()]);
          return " done.";
        },
      },
    );
  });
  const alice = t.user("alice");
  const projects = [await alice.project("Q1"), await alice.project("Q2"), await alice.project("Q3")];
  const first = await alice.request("POST", "/api/messages/stream", { projectId: projects[0], content: "one" });
  await Bun.sleep(100);
  const second = await alice.request("POST", "/api/messages/stream", { projectId: projects[1], content: "two" });
  await Bun.sleep(100);
  const third = await alice.request("POST", "/api/messages/stream", { projectId: projects[2], content: "three" });
  const [a, b, c] = await Promise.all([first, second, third].map((res) => readEvents(res)));
  const queued = (events: StreamEvent[]) => events.flatMap((e) => (e.type === "queued" ? [e.position] : []));
  expect(queued(a!)).toEqual([]);
  expect(queued(b!)).toEqual([1, 0]);
  expect(queued(c!)).toEqual([2, 1, 0]);
  for (const events of [a!, b!, c!]) {
    expect(textOf(events)).toBe("Answer done.");
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
  }
  // The queued answer's text came after its wait ended: nothing streamed while it was in line.
  const bFirstChunk = b!.findIndex((e) => e.type === "chunk");
  expect(b!.findIndex((e) => e.type === "queued" && e.position === 0)).toBeLessThan(bFirstChunk);
  expect(most).toBe(1);
  expect(spans.length).toBe(3);
}, 60_000);
