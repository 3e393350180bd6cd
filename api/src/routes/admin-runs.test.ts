/**
 * The admin page's answers: a running answer is listed with the instance that claimed it, an admin's Stop ends
 * it (the partial answer kept, with a note saying who stopped it), and disabling its owner stops it too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import { createMemoryBus } from "../events/memory-bus";
import { INSTANCE_ID as INSTANCE } from "../lib/instance";
import { ADMIN_STOP_NOTE, DISABLED_STOP_NOTE } from "../services/admin";
import { chatTestApp, readEvents } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
/** A second instance on the same database and bus. */
let other: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  const events = createMemoryBus();
  t = await chatTestApp({ model, env: { ADMIN_EMAILS: "root@example.com" }, events });
  other = await chatTestApp({ model, env: { ADMIN_EMAILS: "root@example.com" }, events });
}, 60_000);
afterAll(async () => {
  await t.close();
  await other.close();
  await model.close();
});
beforeEach(() => model.reset());

type ChatUser = ReturnType<typeof t.user>;
const messages = async (u: ChatUser, projectId: string) => (await (await u.request("GET", `/api/messages/${projectId}`)).json()) as Message[];

/** Starts a slow answer in the user's new project; resolves once its first words arrived. */
async function slowAnswer(u: ChatUser) {
  const projectId = await u.project();
  model.enqueue(turn.steps({ text: "Partial work" }, { delayMs: 5_000 }, { text: " never sent" }));
  const res = await u.request("POST", "/api/messages/stream", { projectId, content: "long task" });
  const events = readEvents(res);
  await Bun.sleep(150);
  return { projectId, events };
}

describe("admin: running answers", () => {
  test("listed with this instance; Stop ends the run, keeping the partial answer with the admin's note", async () => {
    const root = t.user("root");
    const eve = t.user("eve");
    const { projectId, events } = await slowAnswer(eve);
    const running = (await (await root.request("GET", "/api/admin/running")).json()) as { answers: { projectId: string }[] };
    expect(running.answers.find((a) => a.projectId === projectId)).toMatchObject({ instance: INSTANCE, ownerEmail: "eve@example.com" });

    const stop = await root.request("POST", `/api/admin/runs/${projectId}/stop`);
    expect(await stop.json()).toEqual({ stopped: true, relayed: false });
    expect((await events).at(-1)).toMatchObject({ type: "done", status: "stopped" });
    const [, answer] = await messages(eve, projectId);
    expect(answer).toMatchObject({ status: "stopped", content: `Partial work\n\n${ADMIN_STOP_NOTE}` });
    const after = (await (await root.request("GET", "/api/admin/running")).json()) as { answers: { projectId: string }[] };
    expect(after.answers.some((a) => a.projectId === projectId)).toBe(false);
  });

  test("a run on another instance is stopped over the bus; with no run anywhere, nothing is", async () => {
    const root = other.user("root");
    const fay = t.user("fay");
    const { projectId, events } = await slowAnswer(fay);
    expect(await (await root.request("POST", `/api/admin/runs/${projectId}/stop`)).json()).toEqual({ stopped: false, relayed: true });
    expect((await events).at(-1)).toMatchObject({ type: "done", status: "stopped" });
    const [, answer] = await messages(fay, projectId);
    expect(answer).toMatchObject({ status: "stopped", content: `Partial work\n\n${ADMIN_STOP_NOTE}` });
    expect(await (await root.request("POST", `/api/admin/runs/${projectId}/stop`)).json()).toEqual({ stopped: false, relayed: false });
  });

  test("disabling the owner stops their running answer", async () => {
    const root = t.user("root");
    const gus = t.user("gus");
    const { projectId, events } = await slowAnswer(gus);
    expect((await root.request("POST", `/api/admin/users/${gus.uid}/disable`)).status).toBe(200);
    expect((await events).at(-1)).toMatchObject({ type: "done", status: "stopped" });
    await root.request("POST", `/api/admin/users/${gus.uid}/enable`);
    const [, answer] = await messages(gus, projectId);
    expect(answer).toMatchObject({ status: "stopped", content: `Partial work\n\n${DISABLED_STOP_NOTE}` });
  });
});
