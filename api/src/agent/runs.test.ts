import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { grantedAccess } from "../test/access";
import type { StreamEvent } from "@shared/events/stream";
import { silentLogger } from "../lib/logger";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { chunksOf, memoryRunStore, memoryWorkspace } from "../test/memory-workspace";
import { MODEL_NOT_CONFIGURED } from "./model";
import { createModelClient } from "./model-client";
import { createRunManager, SHUTDOWN_NOTE, type Run } from "./runs";

// The run manager on in-memory ports, talking to the scripted model server through the real client.
let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const PROJECT = "p1";

function setup(o: { configured?: boolean } = {}) {
  const runs = memoryRunStore({ [PROJECT]: { ownerId: "alice", name: "Todo" } });
  const workspace = memoryWorkspace();
  const opened: string[] = [];
  const manager = createRunManager({
    store: runs.store,
    conversations: runs.store,
    workspaces: {
      forProject({ userId, projectId }) {
        opened.push(`${userId}/${projectId}`);
        return workspace;
      },
    },
    model: o.configured === false ? null : { client: createModelClient({ baseUrl: model.baseUrl, apiKey: "test" }), name: "fake-model" },
    search: { kind: "none" },
    logger: silentLogger,
    agent: { limits: { backoffBaseMs: 5, idleTimeoutMs: 5_000 }, progressSaveMs: 10 },
  });
  return { manager, runs, workspace, opened };
}

function collect(run: Run): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  return new Promise((resolve) =>
    run.subscribe((event) => {
      events.push(event);
      if (event.type === "done") resolve(events);
    }),
  );
}

describe("run manager (in-memory ports)", () => {
  test("the tools work on the workspace handed out at the start, for the access the run was started with", async () => {
    const { manager, runs, workspace, opened } = setup();
    model.enqueue(
      turn.toolCalls([
        { id: "c1", name: "write_file", arguments: { path: "a.txt", content: "one" } },
        { id: "c2", name: "write_file", arguments: { path: "b.txt", content: "two" } },
      ]),
      turn.toolCalls([{ id: "c3", name: "read_file", arguments: { path: "a.txt" } }]),
      turn.text("Done."),
    );
    const run = await manager.start(grantedAccess("alice", PROJECT), { projectId: PROJECT, content: "Write two files" });
    const events = await collect(run);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete", messageId: run.messageId });
    expect(Object.fromEntries(workspace.fileMap)).toEqual({ "a.txt": "one", "b.txt": "two" });
    expect(opened).toEqual([`alice/${PROJECT}`]);
    expect(runs.saved.get(run.messageId)).toMatchObject({ status: "complete", content: expect.stringContaining("Done.") });
    expect(runs.saved.get(run.messageId)!.toolCalls.map((t) => t.name)).toEqual(["write_file", "write_file", "read_file"]);
  });

  test("an access checked for another project is refused before anything is saved", async () => {
    const { manager, runs } = setup();
    await expect(manager.start(grantedAccess("alice", "p2"), { projectId: PROJECT, content: "Hi" })).rejects.toMatchObject({ status: 500 });
    expect(await manager.stop(grantedAccess("alice", "p2"))).toEqual({ stopped: false, messageId: null });
    expect(runs.messages).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  test("a second message while a run works is refused; stop keeps the partial answer and saves it before done", async () => {
    const { manager, runs } = setup();
    model.enqueue(turn.steps({ text: "Partial" }, { delayMs: 5_000 }, { text: " never" }));
    const run = await manager.start(grantedAccess("alice", PROJECT), { projectId: PROJECT, content: "Go" });
    const done = collect(run);
    const savedAtDone = new Promise((resolve) => run.subscribe((e) => e.type === "done" && resolve(runs.saved.get(run.messageId)?.status)));
    await expect(manager.start(grantedAccess("alice", PROJECT), { projectId: PROJECT, content: "Again" })).rejects.toMatchObject({ status: 409 });
    expect(await manager.active(grantedAccess("alice", PROJECT))).toBe(run);
    while (!runs.saved.get(run.messageId)?.content) await Bun.sleep(10);
    expect(await manager.stop(grantedAccess("alice", PROJECT))).toEqual({ stopped: true, messageId: run.messageId });
    expect(runs.saved.get(run.messageId)).toMatchObject({ status: "stopped", content: "Partial\n\n_(Stopped by the user.)_" });
    expect((await done).at(-1)).toMatchObject({ type: "done", status: "stopped" });
    expect(await savedAtDone).toBe("stopped");
    expect(await manager.active(grantedAccess("alice", PROJECT))).toBeNull();
    expect(manager.activeCount()).toBe(0);
  });

  test("shutdown stops every run with the restart note; no model configured ends a run saying what to set", async () => {
    const { manager, runs } = setup();
    model.enqueue(turn.steps({ text: "Working" }, { delayMs: 5_000 }, { text: " on" }));
    const run = await manager.start(grantedAccess("alice", PROJECT), { projectId: PROJECT, content: "Go" });
    while (!runs.saved.get(run.messageId)?.content) await Bun.sleep(10);
    await manager.shutdown();
    expect(runs.saved.get(run.messageId)).toMatchObject({ status: "stopped", content: `Working\n\n${SHUTDOWN_NOTE}` });
    await expect(manager.start(grantedAccess("alice", PROJECT), { projectId: PROJECT, content: "Later" })).rejects.toMatchObject({ status: 503 });

    const none = setup({ configured: false });
    const failed = await none.manager.start(grantedAccess("alice", PROJECT), { projectId: PROJECT, content: "Hi" });
    const events = await collect(failed);
    expect(events.find((e) => e.type === "error")).toEqual({ type: "error", message: MODEL_NOT_CONFIGURED });
    expect(none.runs.saved.get(failed.messageId)).toMatchObject({ status: "failed", content: `**Error:** ${MODEL_NOT_CONFIGURED}` });
    expect(chunksOf(events)).toBe("");
  });
});
