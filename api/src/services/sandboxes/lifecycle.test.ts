/**
 * A project's sandbox across API instances, with in-memory providers (one per instance) on one database
 * and one event bus: concurrent recreates collapse into one sandbox, stopping a deleted project's sandbox
 * reaches the instance that runs it, and a start the sandbox-start limit refuses stops nothing to make room.
 */
import { grantedAccess } from "../../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../lib/config";
import { memoryProvider } from "../../test/memory-provider";
import { serviceContext } from "../../test/service-context";
import { createProject, deleteProject } from "../projects";
import { createProjectSandboxes } from "./index";

let ctx: Awaited<ReturnType<typeof serviceContext>>;
beforeAll(async () => {
  ctx = await serviceContext();
}, 60_000);

const config = loadConfig({ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9", FIREBASE_PROJECT_ID: "demo-test", SANDBOX_WARM_TEMPLATES: "none" });

const instance = (p: ReturnType<typeof memoryProvider>) => createProjectSandboxes({ ...ctx, provider: p.provider, config });

describe("sandbox lifecycle across instances", () => {
  test("three parallel recreates on one instance leave one sandbox, and all three answer with it", async () => {
    const owner = await ctx.newUser("ann");
    const project = await createProject(ctx, owner, { name: "Triple" });
    const p = memoryProvider();
    const a = instance(p);
    try {
      const answers = await Promise.all([
        a.recreate(grantedAccess(owner, project.id)),
        a.recreate(grantedAccess(owner, project.id)),
        a.recreate(grantedAccess(owner, project.id)),
      ]);
      expect(p.created.length).toBe(1);
      expect(p.live.size).toBe(1);
      expect(new Set(answers.map((x) => x.url)).size).toBe(1);
      expect(answers[0]!.url).toContain(p.created[0]!);
    } finally {
      await a.shutdown();
    }
  });

  test("recreates racing on two instances collapse into one (the claim row); the other waits and answers with it", async () => {
    const owner = await ctx.newUser("ben");
    const project = await createProject(ctx, owner, { name: "Race" });
    const pa = memoryProvider();
    const pb = memoryProvider();
    const [a, b] = [instance(pa), instance(pb)];
    try {
      const answers = await Promise.all([
        a.recreate(grantedAccess(owner, project.id)),
        b.recreate(grantedAccess(owner, project.id)),
        a.recreate(grantedAccess(owner, project.id)),
        b.recreate(grantedAccess(owner, project.id)),
      ]);
      expect(pa.created.length + pb.created.length).toBe(1);
      expect(pa.live.size + pb.live.size).toBe(1);
      expect(new Set(answers.map((x) => x.url)).size).toBe(1);
      // The claim is released: a later recreate runs (and replaces the sandbox, stopping the old one wherever it is).
      const first = [...pa.created, ...pb.created][0]!;
      await b.recreate(grantedAccess(owner, project.id));
      await Bun.sleep(20);
      expect(pa.live.size + pb.live.size).toBe(1);
      expect([...pa.killed, ...pb.killed]).toContain(first);
    } finally {
      await a.shutdown();
      await b.shutdown();
    }
  });

  test("a deleted project's sandbox is stopped on the instance that runs it, and no project names it any more", async () => {
    const owner = await ctx.newUser("cat");
    const project = await createProject(ctx, owner, { name: "Doomed" });
    const pa = memoryProvider({ startMs: 0 });
    const pb = memoryProvider({ startMs: 0 });
    const [a, b] = [instance(pa), instance(pb)];
    try {
      const sandbox = await a.ensure(grantedAccess(owner, project.id));
      expect(await b.isProjectSandbox(sandbox.id)).toBe(true);
      const { sandboxId } = await deleteProject(ctx, grantedAccess(owner, project.id));
      expect(sandboxId).toBe(sandbox.id);
      expect(await b.isProjectSandbox(sandbox.id)).toBe(false);
      await b.stop(owner, project.id, sandboxId); // deleted through instance B
      for (let i = 0; i < 50 && pa.live.size; i++) await Bun.sleep(10);
      expect(pa.killed).toEqual([sandbox.id]);
      expect(a.activeCount()).toBe(0);
    } finally {
      await a.shutdown();
      await b.shutdown();
    }
  });

  test("a start refused by the sandbox-start limit stops none of the owner's sandboxes to make room", async () => {
    const owner = await ctx.newUser("eve");
    const [p1, p2] = [await createProject(ctx, owner, { name: "Kept" }), await createProject(ctx, owner, { name: "Refused" })];
    const p = memoryProvider({ startMs: 0 });
    // One sandbox at a time, one start an hour (a window no test straddles): p2's start would evict p1's sandbox.
    const limited = loadConfig({
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
      FIREBASE_PROJECT_ID: "demo-test",
      SANDBOX_WARM_TEMPLATES: "none",
      MAX_SANDBOXES_PER_USER: "1",
      RATE_LIMIT_SANDBOX_PER_MINUTE: "1",
    });
    const a = createProjectSandboxes({ ...ctx, provider: p.provider, config: { ...limited, rateLimits: { ...limited.rateLimits, windowSeconds: 3600 } } });
    try {
      const kept = await a.ensure(grantedAccess(owner, p1.id));
      for (const start of [() => a.ensure(grantedAccess(owner, p2.id)), () => a.recreate(grantedAccess(owner, p2.id))]) {
        const refused = await start().then(
          () => null,
          (e: { status?: number }) => e.status,
        );
        expect(refused).toBe(429);
        expect(p.killed).toEqual([]);
        expect([...p.live.keys()]).toEqual([kept.id]);
        // Its lease is back: it still counts toward the owner's sandboxes.
        const [row] = await ctx.sql<{ running: boolean }[]>`select sandbox_running_until >= now() as running from projects where id = ${p1.id}`;
        expect(row!.running).toBe(true);
      }
      expect((await a.ensure(grantedAccess(owner, p1.id))).id).toBe(kept.id);
    } finally {
      await a.shutdown();
    }
  });

  test("a sandbox that finishes starting after its project was deleted is stopped, not kept", async () => {
    const owner = await ctx.newUser("dan");
    const project = await createProject(ctx, owner, { name: "Gone mid-start" });
    const p = memoryProvider({ startMs: 300 });
    const a = instance(p);
    try {
      const starting = a.ensure(grantedAccess(owner, project.id)).then(
        () => "kept",
        (e: Error) => e.message,
      );
      await Bun.sleep(50);
      await deleteProject(ctx, grantedAccess(owner, project.id));
      expect(await starting).toBe("Project not found");
      expect(p.created.length).toBe(1);
      expect(p.live.size).toBe(0);
    } finally {
      await a.shutdown();
    }
  });
});
