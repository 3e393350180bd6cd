/**
 * MAX_SANDBOXES_PER_USER and the start claim across API instances: in-memory providers (one per instance,
 * or one pool all reach, as E2B's) on one database. A start at the cap stops the owner's least recently
 * used idle sandbox; with every one busy it answers 429 naming them; concurrent starts never exceed the
 * cap; a first start racing on two instances makes one sandbox; a sandbox that stopped, or whose instance
 * died, stops counting.
 */
import { grantedAccess } from "../../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { finishRunMessage, insertRunMessages } from "../../db/message-runs";
import { AppError } from "../../lib/errors";
import { loadConfig } from "../../lib/config";
import type { Sandbox } from "../../sandbox/types";
import { memoryProvider } from "../../test/memory-provider";
import { serviceContext } from "../../test/service-context";
import { createProject } from "../projects";
import { createProjectSandboxes } from "./index";

let ctx: Awaited<ReturnType<typeof serviceContext>>;
beforeAll(async () => {
  ctx = await serviceContext();
}, 60_000);

const configWith = (max: number) =>
  loadConfig({
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
    FIREBASE_PROJECT_ID: "demo-test",
    SANDBOX_WARM_TEMPLATES: "none",
    MAX_SANDBOXES_PER_USER: String(max),
  });

function instance(p: ReturnType<typeof memoryProvider>, max: number, sandboxLeaseMs?: number) {
  return createProjectSandboxes({ ...ctx, provider: p.provider, config: configWith(max), sandboxLeaseMs });
}

async function projects(owner: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await createProject(ctx, owner, { name: `P${i + 1}` })).id);
  return ids;
}

/** An AI answer being written in the project (the row a chat run holds while it runs). */
async function answering(projectId: string): Promise<() => Promise<void>> {
  const assistantMessageId = crypto.randomUUID();
  const [project] = await ctx.sql<{ ownerId: string }[]>`select owner_id as "ownerId" from projects where id = ${projectId}`;
  const senderId = project!.ownerId;
  await insertRunMessages(ctx.sql, { projectId, userMessageId: crypto.randomUUID(), assistantMessageId, content: "build it", attachments: [], senderId });
  return () =>
    finishRunMessage(ctx.sql, assistantMessageId, projectId, { content: "", thinking: null, toolCalls: [], actions: [], usage: null, status: "complete" });
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) =>
      e instanceof AppError ? { status: e.status, message: e.message, retryAfter: e.headers["Retry-After"] } : { status: 500, message: String(e) },
  );

describe(`sandboxes per user (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("at the cap, a start on another instance stops the least recently used idle sandbox, wherever it runs", async () => {
    const owner = await ctx.newUser("ivy");
    const [p1, p2, p3] = await projects(owner, 3);
    const pa = memoryProvider({ startMs: 0 });
    const pb = memoryProvider({ startMs: 0 });
    const [a, b] = [instance(pa, 2), instance(pb, 2)];
    try {
      const s1 = await a.ensure(grantedAccess(owner, p1!));
      await Bun.sleep(20);
      const s2 = await b.ensure(grantedAccess(owner, p2!));
      await Bun.sleep(20);
      const s3 = await b.ensure(grantedAccess(owner, p3!)); // one more than the cap: p1's sandbox, the oldest, makes room
      for (let i = 0; i < 50 && pa.live.has(s1.id); i++) await Bun.sleep(10);
      expect(pa.killed).toEqual([s1.id]);
      expect([...pb.live.keys()].sort()).toEqual([s2.id, s3.id].sort());
      expect(a.activeCount()).toBe(0);

      // Using p2 makes p3 the least recently used: p1 coming back stops p3, not p2.
      await Bun.sleep(20);
      await ctx.sql`update projects set sandbox_used_at = now() where id = ${p2!}`;
      const again = await a.ensure(grantedAccess(owner, p1!));
      expect(again.id).not.toBe(s1.id);
      expect(pb.killed).toEqual([s3.id]);
      expect(pa.live.size + pb.live.size).toBe(2);
    } finally {
      await a.shutdown();
      await b.shutdown();
    }
  });

  test("a handed-over project's running sandbox counts for its new owner, not the old one", async () => {
    const [was, now] = [await ctx.newUser("was"), await ctx.newUser("now")];
    const [handed, kept] = await projects(was, 2);
    const [theirs] = await projects(now, 1);
    const p = memoryProvider({ startMs: 0 });
    const a = instance(p, 1);
    try {
      const running = await a.ensure(grantedAccess(was, handed!));
      // What POST /api/projects/{id}/transfer does to the project's row (db/members.ts transferOwnership).
      await ctx.sql`update projects set owner_id = ${now} where id = ${handed!}`;
      await Bun.sleep(20);
      // The old owner's one slot is free: their other project starts and the handed-over sandbox keeps running.
      const mine = await a.ensure(grantedAccess(was, kept!));
      expect([...p.live.keys()].sort()).toEqual([running.id, mine.id].sort());
      // The new owner's cap of 1 holds it: their own project's start makes room by stopping it.
      const next = await a.ensure(grantedAccess(now, theirs!));
      for (let i = 0; i < 50 && p.live.has(running.id); i++) await Bun.sleep(10);
      expect(p.killed).toEqual([running.id]);
      expect([...p.live.keys()].sort()).toEqual([mine.id, next.id].sort());
    } finally {
      await a.shutdown();
    }
  });

  test("with every sandbox busy, one more answers 429 naming them, and starts nothing", async () => {
    const owner = await ctx.newUser("jay");
    const [p1, p2, p3] = await projects(owner, 3);
    const p = memoryProvider({ startMs: 0 });
    const a = instance(p, 2);
    try {
      await a.ensure(grantedAccess(owner, p1!));
      await a.ensure(grantedAccess(owner, p2!));
      const done1 = await answering(p1!);
      await answering(p2!);
      const refused = await refusal(a.ensure(grantedAccess(owner, p3!)));
      expect(refused?.status).toBe(429);
      expect(refused?.retryAfter).toBe("30");
      expect(refused?.message).toBe(
        'Your account may run 2 sandboxes at once and all are busy: "P1" is writing an AI answer and "P2" is writing an AI answer. ' +
          "This project's sandbox can start when one of them finishes (or when you stop its answer); try again then.",
      );
      expect((await refusal(a.recreate(grantedAccess(owner, p3!))))?.status).toBe(429);
      expect(p.created.length).toBe(2);
      expect(p.killed).toEqual([]);
      // An answer ends: its sandbox is idle again, and makes room.
      await done1();
      await a.ensure(grantedAccess(owner, p3!));
      expect(p.created.length).toBe(3);
      expect(p.killed.length).toBe(1);
    } finally {
      await a.shutdown();
    }
  });

  test("starts racing on two instances never exceed the cap: starting sandboxes are busy, so the rest are refused", async () => {
    const owner = await ctx.newUser("kim");
    const ids = await projects(owner, 5);
    const pa = memoryProvider({ startMs: 300 });
    const pb = memoryProvider({ startMs: 300 });
    const [a, b] = [instance(pa, 2), instance(pb, 2)];
    try {
      const outcomes = await Promise.all(ids.map((id, i) => refusal((i % 2 ? b : a).ensure(grantedAccess(owner, id)))));
      expect(outcomes.filter((o) => o === null).length).toBe(2);
      expect(outcomes.filter((o) => o?.status === 429).length).toBe(3);
      expect(pa.created.length + pb.created.length).toBe(2);
      expect(pa.live.size + pb.live.size).toBe(2);
    } finally {
      await a.shutdown();
      await b.shutdown();
    }
  });

  test("a first start racing on two instances makes one sandbox; the other instance uses it", async () => {
    const owner = await ctx.newUser("lou");
    const [id] = await projects(owner, 1);
    const pool = new Map<string, Sandbox>(); // both instances reach every sandbox, as with E2B
    const pa = memoryProvider({ startMs: 300, shared: pool });
    const pb = memoryProvider({ startMs: 300, shared: pool });
    const [a, b] = [instance(pa, 3), instance(pb, 3)];
    try {
      const got = await Promise.all([
        a.ensure(grantedAccess(owner, id!)),
        b.ensure(grantedAccess(owner, id!)),
        a.ensure(grantedAccess(owner, id!)),
        b.ensure(grantedAccess(owner, id!)),
      ]);
      expect(pa.created.length + pb.created.length).toBe(1);
      expect(pool.size).toBe(1);
      expect(new Set(got.map((s) => s.id))).toEqual(new Set([...pa.created, ...pb.created]));
      expect(a.activeCount() + b.activeCount()).toBe(2); // attached (files synced) on both
      const [row] = await ctx.sql<{ sandboxId: string }[]>`select sandbox_id as "sandboxId" from projects where id = ${id!}`;
      expect(row!.sandboxId).toBe(got[0]!.id);
    } finally {
      await a.shutdown();
      await b.shutdown();
    }
  });

  test("a sandbox that stopped by itself, or whose instance died, stops counting once its lease lapses", async () => {
    const owner = await ctx.newUser("max");
    const [p1, p2, p3] = await projects(owner, 3);
    const pa = memoryProvider({ startMs: 0 });
    const pb = memoryProvider({ startMs: 0 });
    const [a, b] = [instance(pa, 1, 1500), instance(pb, 1, 1500)];
    try {
      // Busy (an answer running), so nothing could stop it to make room: only its end frees the slot.
      const s1 = await a.ensure(grantedAccess(owner, p1!));
      await answering(p1!);
      expect((await refusal(b.ensure(grantedAccess(owner, p2!))))?.status).toBe(429);
      await s1.kill(); // its idle time ran out (or its lifetime)
      await Bun.sleep(700); // instance A's next lease renewal (every 500 ms) finds it stopped
      const s2 = await b.ensure(grantedAccess(owner, p2!));
      await answering(p2!);
      // Instance B dies: nothing renews its sandbox's lease, and after it lapses p3 may start.
      await b.shutdown();
      expect((await refusal(a.ensure(grantedAccess(owner, p3!))))?.status).toBe(429);
      await Bun.sleep(1600);
      expect(await refusal(a.ensure(grantedAccess(owner, p3!)))).toBeNull();
      expect(pb.killed).toEqual([]); // it was not stopped by anyone: its lease simply ran out
      expect(s2.id).toBeTruthy();
    } finally {
      await a.shutdown();
    }
  });
});
