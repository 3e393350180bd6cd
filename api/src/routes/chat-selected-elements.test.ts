// Select to edit: elements picked in the preview travel with the message (POST /api/messages/stream `elements`)
// and reach the model's request as a note on the user's message; the stored message keeps only the typed text;
// an excerpt over its cap is refused with a message naming the cap.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { MAX_ELEMENT_HTML } from "@shared/schemas/selected-element";
import { chatTestApp, readEvents } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});
beforeEach(() => model.reset());

const heading = {
  component: "App",
  file: "src/App.tsx",
  line: 6,
  tag: "h1",
  selector: "main > h1",
  text: "Hello from React",
  html: "<h1>Hello from React</h1>",
};

describe("selected elements", () => {
  test("reach the model with the message; the history keeps what was typed", async () => {
    const alice = t.user("alice");
    const projectId = await alice.project();
    model.enqueue(turn.steps({ text: "ok" }));
    await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "Make this red", elements: [heading] }));
    const last = model.requests[0]!.body.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(String(last.content)).toContain(
      'Make this red\n\n[The user selected this element in the preview: <h1> in App at src/App.tsx:6, text "Hello from React"',
    );
    const history = (await (await alice.request("GET", `/api/messages/${projectId}`)).json()) as Array<{ role: string; content: string }>;
    expect(history.find((m) => m.role === "user")?.content).toBe("Make this red");
  });

  test("an HTML excerpt over the cap is refused, naming it", async () => {
    const bob = t.user("bob");
    const projectId = await bob.project();
    const res = await bob.request("POST", "/api/messages/stream", {
      projectId,
      content: "Hi",
      elements: [{ ...heading, html: "x".repeat(MAX_ELEMENT_HTML + 1) }],
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`capped at ${MAX_ELEMENT_HTML} characters`);
    expect(model.requests).toHaveLength(0);
  });
});
