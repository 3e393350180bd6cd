/**
 * Secret values never reach the model or the chat, through the real app, database and fake model server: a
 * file the agent reads, command output (real local sandbox), the user's own message, and model text streamed
 * in small pieces all come out as `[secret NAME]`; and request_secret waits for the PUT and tells the model
 * only "set".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { chatTestApp, readEvents } from "../../test/chat-test-app";
import { type FakeModelServer, startFakeModelServer, turn } from "../../test/fake-model-server";
import { localSuiteGate } from "../../test/local-sandbox-support";

const VALUE = "sk-live-0123456789abcdef";
const REDACTED = "[secret STRIPE_KEY]";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model });
});
afterAll(async () => {
  await t.close();
  await model.close();
});

/** Requests the model received, as text, leaving out the assistant's own turns (a scripted model "knows" what it says). */
const received = () => model.requests.map((r) => JSON.stringify(r.body.messages.filter((m) => m.role !== "assistant")));

describe("secret values kept from the model and the chat", () => {
  test("a file the agent reads, the user's message and streamed model text", async () => {
    model.reset();
    const alice = t.user("alice");
    const projectId = await alice.project();
    expect((await alice.request("PUT", `/api/projects/${projectId}/secrets/STRIPE_KEY`, { value: VALUE })).status).toBe(201);
    expect((await alice.request("POST", `/api/files/${projectId}`, { path: ".env", content: `STRIPE_KEY=${VALUE}\n` })).ok).toBe(true);
    model.enqueue(
      turn.toolCalls([{ name: "read_file", arguments: { path: ".env" } }]),
      // A model that somehow says it, three characters at a time: no delta carries a piece of it.
      turn.steps({ text: `The key is ${VALUE}, kept safe.`, chunkSize: 3 }),
    );
    const events = await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: `My key is ${VALUE}` }));

    for (const body of received()) expect(body).not.toContain(VALUE);
    expect(received()[0]).toContain(`My key is ${REDACTED}`);
    expect(received()[1]).toContain(`STRIPE_KEY=${REDACTED}`);
    for (const event of events) expect(JSON.stringify(event)).not.toContain(VALUE.slice(0, 8));
    const text = events.map((e) => (e.type === "chunk" ? e.content : "")).join("");
    expect(text).toContain(`The key is ${REDACTED}, kept safe.`);
    const saved = JSON.stringify(await (await alice.request("GET", `/api/messages/${projectId}`)).json());
    expect(saved).not.toContain(VALUE);
    expect(saved).toContain(`My key is ${REDACTED}`);
    // The file itself is untouched: only what is read out to the model is redacted.
    const files = (await (await alice.request("GET", `/api/files/${projectId}`)).json()) as { id: string; path: string }[];
    const env = files.find((f) => f.path === ".env")!;
    expect(((await (await alice.request("GET", `/api/files/${projectId}/${env.id}`)).json()) as { content: string }).content).toBe(`STRIPE_KEY=${VALUE}\n`);
  }, 60_000);
});

if (await localSuiteGate("secret requests and command output", { sameOnEveryDatabase: true })) {
  describe("request_secret and command output in a local sandbox", () => {
    test("the run waits for the PUT, the model hears only 'set', and an echo of the value reaches it redacted", async () => {
      model.reset();
      const bob = t.user("bob");
      const projectId = await bob.project();
      model.enqueue(
        turn.toolCalls([{ name: "request_secret", arguments: { name: "STRIPE_KEY", reason: "To take payments" } }]),
        turn.toolCalls([{ name: "run_shell", arguments: { command: 'echo "stripe=$STRIPE_KEY"' } }]),
        turn.text("Done."),
      );
      let put: Promise<Response> | Response | null = null;
      const events = await readEvents(await bob.request("POST", "/api/messages/stream", { projectId, content: "Add payments" }), (event: StreamEvent) => {
        // The browser's part: the form's value goes straight to the secrets API.
        if (event.type === "secret_request") put = bob.request("PUT", `/api/projects/${projectId}/secrets/${event.name}`, { value: VALUE });
        return false;
      });
      expect((await put!).status).toBe(201);
      expect(events.find((e) => e.type === "secret_request")).toEqual({ type: "secret_request", name: "STRIPE_KEY", reason: "To take payments" });
      const bodies = received();
      for (const body of bodies) expect(body).not.toContain(VALUE);
      const toolResult = (i: number) => model.requests[i]!.body.messages.filter((m) => m.role === "tool").at(-1)?.content;
      expect(toolResult(1)).toBe("set");
      expect(toolResult(2)).toContain(`stripe=${REDACTED}`);
      for (const event of events) expect(JSON.stringify(event)).not.toContain(VALUE);
    }, 120_000);
  });
}
