import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { silentLogger } from "../../lib/logger";
import { testApp } from "../../test/test-app";
import { ABANDONED_NOTE, heartbeatFor, startAbandonedRunSweeper } from "./abandoned-runs";

let t: Awaited<ReturnType<typeof testApp>>;
let stop = () => {};
beforeAll(async () => {
  t = await testApp();
}, 60_000);
afterAll(() => stop());

async function runningAnswer(name: string, content: string, ageSeconds: number) {
  const alice = t.user(name);
  const project = await (await alice.request("POST", "/api/projects", { name })).json();
  const id = crypto.randomUUID();
  await t.db.sql`
    insert into messages (id, project_id, role, content, status, updated_at)
    values (${id}, ${project.id}, 'assistant', ${content}, 'running', now() - make_interval(secs => ${ageSeconds}))`;
  return id;
}

const statusOf = async (id: string) => (await t.db.sql<{ status: string; content: string }[]>`select status, content from messages where id = ${id}`)[0]!;

describe("abandoned runs", () => {
  test("an answer not refreshed within the threshold is marked failed with a note, on any project; a live one is left alone", async () => {
    const dead = await runningAnswer("dead", "Half an answer", 30);
    const silent = await runningAnswer("silent", "", 30);
    const live = await runningAnswer("live", "Still going", 0);
    stop = startAbandonedRunSweeper({ sql: t.db.sql, logger: silentLogger, staleRunMs: 5_000 });

    const deadline = Date.now() + 8_000;
    while ((await statusOf(dead)).status === "running" && Date.now() < deadline) await Bun.sleep(100);
    expect(await statusOf(dead)).toEqual({ status: "failed", content: `Half an answer\n\n${ABANDONED_NOTE}` });
    expect(await statusOf(silent)).toEqual({ status: "failed", content: ABANDONED_NOTE });
    expect((await statusOf(live)).status).toBe("running");
  }, 15_000);

  test("a live run refreshes its message well inside the threshold", () => {
    expect(heartbeatFor(120_000)).toBe(20_000);
    expect(heartbeatFor(2_000)).toBe(500);
  });
});
