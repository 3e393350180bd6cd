/**
 * The sandbox slot queries on the test database: one start claim per project, renewed and released only by
 * its token; leases that count toward the cap, renewed only for the project's current sandbox; eviction order.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { newOwner, newProject } from "../test/db-rows";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import {
  claimSandboxStart,
  endSandboxLease,
  releaseSandboxClaim,
  renewSandboxClaim,
  renewSandboxLeases,
  sandboxClaimHeld,
  touchSandboxUse,
} from "./sandbox-slots";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

const claim = (ownerId: string, projectId: string, max = 0, token: string = crypto.randomUUID()) =>
  claimSandboxStart(sql, { ownerId, projectId, token, claimMs: 60_000, max });
/** A project with a running sandbox (a live lease), as a finished start leaves it. */
async function running(ownerId: string, name: string): Promise<{ projectId: string; sandboxId: string }> {
  const projectId = await newProject(sql, ownerId, name);
  const sandboxId = `sb-${crypto.randomUUID()}`;
  await sql`update projects set sandbox_id = ${sandboxId} where id = ${projectId}`;
  await renewSandboxLeases(sql, [{ projectId, sandboxId }], 60_000);
  return { projectId, sandboxId };
}
const leaseLive = async (projectId: string) =>
  (await sql<{ live: boolean }[]>`select coalesce(sandbox_running_until >= now(), false) as live from projects where id = ${projectId}`)[0]!.live;

describe(`sandbox slot queries (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("one claim per project at a time; only its token renews or releases it", async () => {
    const owner = await newOwner(sql);
    const project = await newProject(sql, owner);
    const results = await Promise.all([claim(owner, project, 0, "t1"), claim(owner, project, 0, "t2")]);
    expect(results.map((r) => r.kind).sort()).toEqual(["claimed", "held"]);
    const holder = results[0]!.kind === "claimed" ? "t1" : "t2";
    const other = holder === "t1" ? "t2" : "t1";
    expect(await sandboxClaimHeld(sql, project)).toBe(true);
    expect(await renewSandboxClaim(sql, project, other, 60_000)).toBe(false);
    expect(await renewSandboxClaim(sql, project, holder, 60_000)).toBe(true);
    await releaseSandboxClaim(sql, project, other);
    expect(await sandboxClaimHeld(sql, project)).toBe(true);
    await releaseSandboxClaim(sql, project, holder);
    expect(await sandboxClaimHeld(sql, project)).toBe(false);
    expect((await claim(owner, project)).kind).toBe("claimed");
    // A missing project is "held": there is nothing to start.
    expect((await claim(owner, crypto.randomUUID())).kind).toBe("held");
    expect(await sandboxClaimHeld(sql, crypto.randomUUID())).toBe(false);
  });

  test("an expired claim can be taken again, and the old token no longer renews it", async () => {
    const owner = await newOwner(sql);
    const project = await newProject(sql, owner);
    await claim(owner, project, 0, "old");
    await sql`update projects set sandbox_claimed_until = now() - interval '1 second' where id = ${project}`;
    expect(await sandboxClaimHeld(sql, project)).toBe(false);
    expect((await claim(owner, project, 0, "new")).kind).toBe("claimed");
    expect(await renewSandboxClaim(sql, project, "old", 60_000)).toBe(false);
  });

  test("a lease is renewed only for the project's current sandbox, and ends", async () => {
    const owner = await newOwner(sql);
    const sandbox = await running(owner, "a");
    await sql`update projects set sandbox_running_until = null where id = ${sandbox.projectId}`;
    await renewSandboxLeases(sql, [{ projectId: sandbox.projectId, sandboxId: "sb-replaced" }], 60_000);
    expect(await leaseLive(sandbox.projectId)).toBe(false);
    await renewSandboxLeases(sql, [sandbox], 60_000);
    expect(await leaseLive(sandbox.projectId)).toBe(true);
    await endSandboxLease(sql, sandbox.projectId, "sb-replaced");
    expect(await leaseLive(sandbox.projectId)).toBe(true);
    await endSandboxLease(sql, sandbox.projectId, sandbox.sandboxId);
    expect(await leaseLive(sandbox.projectId)).toBe(false);
    await renewSandboxLeases(sql, [], 60_000); // nothing to do, no query error
  });

  test("at the cap, the least recently used idle sandbox is evicted; busy ones are not", async () => {
    const owner = await newOwner(sql);
    const a = await running(owner, "a");
    const b = await running(owner, "b");
    await touchSandboxUse(sql, b.projectId);
    await renewSandboxLeases(sql, [a], 60_000, false);
    await sql`update projects set sandbox_used_at = now() - interval '1 hour' where id = ${a.projectId}`;
    const target = await newProject(sql, owner, "c");
    const taken = await claim(owner, target, 2);
    expect(taken).toEqual({ kind: "claimed", evicted: [a] });
    expect(await leaseLive(a.projectId)).toBe(false);
    expect(await leaseLive(b.projectId)).toBe(true);
    // Now c is starting (its claim) and b is answering: with a cap of 1 neither is taken, and both are named,
    // the never-used first.
    await sql`insert into messages (id, project_id, role, content, status) values (${crypto.randomUUID()}, ${b.projectId}, 'assistant', '', 'running')`;
    const full = await claim(owner, await newProject(sql, owner, "d"), 1);
    expect(full.kind).toBe("full");
    expect(full.kind === "full" && full.holders.map((h) => [h.name, h.starting, h.answering])).toEqual([
      ["c", true, false],
      ["b", false, true],
    ]);
    expect(await leaseLive(b.projectId)).toBe(true);
  });
});
