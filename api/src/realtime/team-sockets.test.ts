/**
 * Working together over the project socket, through the real server and a scripted model: who has the project
 * open (`presence`, told again when someone leaves), a member's run announced to the others (`run.started`,
 * with who sent it) whose stream they can follow (GET …/active), a second member's send answered 409 naming
 * who runs, a new activity line (`activity.changed`), a changed role told to its person, and the project's
 * detail telling each person their role.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PresenceEvent, RunStartedEvent } from "@shared/events/team-events";
import { chatTestApp, readEvents, textOf } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { emailOf, sharedProject } from "../test/members";
import { appServer } from "../test/app-server";
import { listenToProject, until } from "../test/project-socket";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
let server: ReturnType<typeof appServer>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model });
  server = appServer(t);
}, 60_000);
afterAll(async () => {
  server.stop();
  await t.close();
  await model.close();
});

const person = (name: string) => t.user(`${name}${crypto.randomUUID().slice(0, 8)}`);

const listen = (token: string, projectId: string) => listenToProject(server.ws, token, projectId);

const names = (event: PresenceEvent | undefined) => event?.people.map((p) => p.name) ?? [];

describe("working together", () => {
  test("presence: each socket hears who has the project open, once per person, and again when someone leaves", async () => {
    const owner = person("own");
    const editor = person("ed");
    const id = await sharedProject(owner, { editor });
    const o = await listen(owner.token, id);
    const e = await listen(editor.token, id);
    const eAgain = await listen(editor.token, id); // a second tab adds nobody
    await until("the owner sees both", () => names(o.last<PresenceEvent>("presence")).length === 2);
    expect(names(o.last<PresenceEvent>("presence"))).toEqual([expect.stringMatching(/^own/), expect.stringMatching(/^ed/)]);
    expect(names(e.last<PresenceEvent>("presence"))).toEqual(names(o.last<PresenceEvent>("presence")));
    e.ws.close();
    eAgain.ws.close();
    await until("the owner sees only themselves", () => names(o.last<PresenceEvent>("presence")).length === 1);
    o.ws.close();
  });

  test("a member's run is announced with who sent it, the others follow its stream, and their send is 409 naming the sender", async () => {
    const owner = person("own");
    const editor = person("ed");
    const id = await sharedProject(owner, { editor });
    const e = await listen(editor.token, id);
    model.enqueue(turn.steps({ text: "Slow" }, { delayMs: 600 }, { text: " answer" }));
    const first = await owner.request("POST", "/api/messages/stream", { projectId: id, content: "Build a todo app" });
    expect(first.status).toBe(200);
    await until("the editor hears the run start", () => e.heard.some((m) => m.type === "run.started"));
    const started = e.last<RunStartedEvent>("run.started")!;
    expect(started).toEqual({ type: "run.started", projectId: id, messageId: expect.any(String), userId: owner.uid, by: expect.stringMatching(/^own/) });

    const following = readEvents(await editor.request("GET", `/api/messages/${id}/active`));
    const second = await editor.request("POST", "/api/messages/stream", { projectId: id, content: "Me too" });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: string }).error).toMatch(
      new RegExp(`^${started.by} is running the agent on this project \\("Build a todo app"\\)`),
    );

    expect(textOf(await following)).toBe("Slow answer");
    expect(textOf(await readEvents(first))).toBe("Slow answer");
    await until("the editor hears the activity change", () => e.heard.some((m) => m.type === "activity.changed"));
    e.ws.close();
  });

  test("a person whose role changes is told on their socket (their screens read the project again)", async () => {
    const owner = person("own");
    const editor = person("ed");
    const id = await sharedProject(owner, { editor });
    const e = await listen(editor.token, id);
    expect((await owner.request("PATCH", `/api/projects/${id}/members/${emailOf(editor)}`, { role: "viewer" })).status).toBe(200);
    await until("the editor hears their role changed", () => e.heard.some((m) => m.type === "project.access.changed"));
    expect(e.last("project.access.changed")).toEqual({ type: "project.access.changed", projectId: id });
    e.ws.close();
  });

  test("the project's detail tells each person their role", async () => {
    const owner = person("own");
    const editor = person("ed");
    const viewer = person("vi");
    const id = await sharedProject(owner, { editor, viewer });
    for (const [who, role] of [
      [owner, "owner"],
      [editor, "editor"],
      [viewer, "viewer"],
    ] as const) {
      const res = await who.request("GET", `/api/projects/${id}`);
      expect(((await res.json()) as { role: string }).role).toBe(role);
    }
  });
});
