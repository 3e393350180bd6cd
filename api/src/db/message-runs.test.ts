/** The run queries on the test database: the claim (one running answer per project), progress, finish and the stale-run sweeps. */
import { beforeAll, describe, expect, test } from "bun:test";
import { newOwner, newProject } from "../test/db-rows";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import { failAbandonedRuns, failStaleRuns, finishRunMessage, insertRunMessages, saveRunProgress, touchRunMessage } from "./message-runs";
import { insertMessage, listMessages } from "./messages";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

const start = async (projectId: string, content = "make a todo app") => {
  const ids = { userMessageId: crypto.randomUUID(), assistantMessageId: crypto.randomUUID() };
  // The owner sends (the sender must be a user).
  const [project] = await sql<{ ownerId: string }[]>`select owner_id as "ownerId" from projects where id = ${projectId}`;
  return insertRunMessages(sql, { projectId, ...ids, content, attachments: ["a.png"], senderId: project!.ownerId }).then((ok) => ({ ok, ...ids }));
};
const state = { content: "", thinking: null, toolCalls: [], actions: [], usage: null };
/** Sets a message's last sign of life `seconds` ago. */
const age = (id: string, seconds: number) => sql`update messages set updated_at = now() - make_interval(secs => ${seconds}) where id = ${id}`;

describe(`run queries (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a run is the question and a running answer sorted after it; a second run of the project is refused", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const [a, b] = await Promise.all([start(project, "one"), start(project, "two")]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const winner = a.ok ? a : b;
    const messages = await listMessages(sql, project);
    expect(messages.map((m) => [m.id, m.role, m.status])).toEqual([
      [winner.userMessageId, "user", "complete"],
      [winner.assistantMessageId, "assistant", "running"],
    ]);
    expect(messages[0]!.attachments).toEqual(["a.png"]);
    expect(Date.parse(messages[1]!.createdAt)).toBeGreaterThan(Date.parse(messages[0]!.createdAt));
    // Another project runs at the same time.
    expect((await start(await newProject(sql, await newOwner(sql)))).ok).toBe(true);
  });

  test("progress is saved while running only; the finish writes the final state and frees the project", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const run = await start(project);
    const step = { id: "s1", type: "tool" as const, name: "write_file", status: "done" as const, text: "Wrote a.ts" };
    await saveRunProgress(sql, run.assistantMessageId, {
      ...state,
      content: "half",
      actions: [step] as never,
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } as never,
    });
    let answer = (await listMessages(sql, project))[1]!;
    expect(answer).toMatchObject({ content: "half", status: "running", usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } });
    expect(answer.actions).toEqual([step] as never);
    await finishRunMessage(sql, run.assistantMessageId, project, { ...state, content: "done", status: "complete" });
    await saveRunProgress(sql, run.assistantMessageId, { ...state, content: "late write" });
    answer = (await listMessages(sql, project))[1]!;
    expect(answer).toMatchObject({ content: "done", status: "complete", usage: null, actions: [] });
    expect((await start(project)).ok).toBe(true);
  });

  test("an abandoned run of one project is failed keeping its text; a live one is left", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const run = await start(project);
    await saveRunProgress(sql, run.assistantMessageId, { ...state, content: "partial" });
    await age(run.assistantMessageId, 600);
    const cutoff = new Date(Date.now() - 300_000);
    expect(await failAbandonedRuns(sql, project, cutoff, "The server stopped.")).toBe(1);
    expect((await listMessages(sql, project))[1]).toMatchObject({ status: "failed", content: "partial\n\nThe server stopped." });
    const live = await start(project);
    await touchRunMessage(sql, live.assistantMessageId);
    expect(await failAbandonedRuns(sql, project, cutoff, "x")).toBe(0);
  });

  test("the sweep over every project fails only runs silent longer than the limit, on the database clock", async () => {
    const [p1, p2] = [await newProject(sql, await newOwner(sql)), await newProject(sql, await newOwner(sql))];
    const stale = await start(p1);
    const fresh = await start(p2);
    await age(stale.assistantMessageId, 3600);
    const failed = await failStaleRuns(sql, 1800, "Lost.");
    expect(failed).toContainEqual({ id: stale.assistantMessageId, projectId: p1 });
    expect(failed.map((f) => f.id)).not.toContain(fresh.assistantMessageId);
    expect((await listMessages(sql, p1))[1]).toMatchObject({ status: "failed", content: "Lost." });
    expect((await listMessages(sql, p2))[1]!.status).toBe("running");
  });

  test("plain messages list in creation order with their JSON fields", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const first = crypto.randomUUID();
    await insertMessage(sql, { id: first, projectId: project, role: "user", content: "hi" });
    await Bun.sleep(5);
    await insertMessage(sql, {
      id: crypto.randomUUID(),
      projectId: project,
      role: "assistant",
      content: "hello",
      thinking: "hm",
      toolCalls: [{ id: "t", name: "n", arguments: "{}" }] as never,
    });
    const [q, a] = await listMessages(sql, project);
    expect(q).toMatchObject({ id: first, role: "user", content: "hi", thinking: null, attachments: [], toolCalls: [], actions: [], status: "complete" });
    expect(a).toMatchObject({ role: "assistant", thinking: "hm", toolCalls: [{ id: "t", name: "n", arguments: "{}" }] });
  });
});
