/**
 * An answer reached through another instance: two app instances on one PostgreSQL database (each with its own
 * pool and LISTEN connection, as two processes would have) and one scripted model server. A run started on
 * the first is reattached and stopped through the second, whose requests are relayed over the bus.
 * Skipped on PGlite, where the app runs one instance on the memory bus.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import postgres from "postgres";
import type { Message } from "@shared/schemas/message";
import type { Sql } from "../../db/client";
import { createPostgresBus } from "../../events/postgres-bus";
import { silentLogger } from "../../lib/logger";
import { chatTestApp, readEvents, textOf } from "../../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../../test/fake-model-server";
import { testDb } from "../../test/test-db";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
type Instance = Awaited<ReturnType<typeof chatTestApp>>;

describe.skipIf(!onPostgres)("answers work from any instance (two instances on PostgreSQL)", () => {
  let model: FakeModelServer;
  const instances: Instance[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    model = await startFakeModelServer();
    const target = (await testDb()).target as { hostname: string; port: number; database: string };
    for (let i = 0; i < 2; i++) {
      const sql = postgres({ host: target.hostname, port: target.port, database: target.database, username: "postgres", max: 4, onnotice: () => {} });
      const bus = await createPostgresBus(sql as unknown as Sql, silentLogger);
      closers.push(
        () => bus.close(),
        () => sql.end(),
      );
      instances.push(await chatTestApp({ model, events: bus }));
    }
  }, 120_000);
  afterAll(async () => {
    for (const i of instances) await i.close();
    for (const close of closers.reverse()) await close().catch(() => {});
    await model?.close();
  });
  beforeEach(() => model.reset());

  /** The same person's request to the given instance (any instance accepts the token). */
  const as = (token: string) => (instance: Instance, method: string, path: string, body?: unknown) =>
    instance.app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // One event larger than a NOTIFY payload (quotes, backslashes and non-ASCII, which grow when escaped).
  const BIG = `${'big "ü\\ '.repeat(1500)}end of big`;
  const slowAnswer = () =>
    turn.steps(
      { text: "First part." },
      { delayMs: 300 },
      { text: BIG, chunkSize: 20_000 },
      ...Array.from({ length: 12 }, (_, i) => [{ delayMs: 100 }, { text: ` w${i}` }]).flat(),
    );

  test("a reattach on the other instance streams the whole answer, replayed then live, to its end", async () => {
    const [a, b] = instances as [Instance, Instance];
    model.respondWith(() => slowAnswer());
    const alice = a.user("alice");
    const projectId = await alice.project("Relay");
    const request = as(alice.token);

    const started = await request(a, "POST", "/api/messages/stream", { projectId, content: "Build it" });
    expect(started.status).toBe(200);
    const early = await readEvents(started, (_, all) => textOf(all).includes("First part."));
    expect(textOf(early)).toBe("First part.");

    // 20 reloads at once, all on the instance that does not run the answer.
    const reattached = await Promise.all(Array.from({ length: 20 }, () => request(b, "GET", `/api/messages/${projectId}/active`)));
    expect(reattached.map((r) => r.status)).toEqual(reattached.map(() => 200));
    const streams = await Promise.all(reattached.map((r) => readEvents(r)));
    for (const events of streams) {
      expect(textOf(events)).toStartWith("First part.");
      expect(textOf(events)).toContain(BIG);
      expect(textOf(events)).toEndWith(" w11");
      expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    }
    const [answer] = ((await (await request(b, "GET", `/api/messages/${projectId}`)).json()) as Message[]).filter((m) => m.role === "assistant");
    expect(answer?.content).toBe(textOf(streams[0]!));
    // Once it is over, neither instance has a run to reattach to.
    expect((await request(b, "GET", `/api/messages/${projectId}/active`)).status).toBe(204);
  }, 60_000);

  test("Stop sent to the other instance stops the answer where it runs, and it is saved as stopped", async () => {
    const [a, b] = instances as [Instance, Instance];
    model.respondWith(() => turn.steps({ text: "Working on it." }, ...Array.from({ length: 100 }, () => [{ delayMs: 100 }, { text: " more" }]).flat()));
    const bob = a.user("bob");
    const projectId = await bob.project("Stop relay");
    const request = as(bob.token);
    const started = await request(a, "POST", "/api/messages/stream", { projectId, content: "Build it" });
    const stream = readEvents(started);
    await Bun.sleep(300);
    expect(a.runs.activeCount()).toBe(1);

    const stop = await request(b, "POST", `/api/messages/${projectId}/stop`);
    expect(stop.status).toBe(200);
    const stopped = (await stop.json()) as { stopped: boolean; messageId: string | null };
    expect(stopped.stopped).toBe(true);
    expect(a.runs.activeCount()).toBe(0);
    const events = await stream;
    expect(events.at(-1)).toMatchObject({ type: "done", status: "stopped", messageId: stopped.messageId });
    expect(events.filter((e) => e.type === "chunk").length).toBeLessThan(60); // cut well before the model's end
    const saved = (await (await request(b, "GET", `/api/messages/${projectId}`)).json()) as Message[];
    expect(saved.find((m) => m.id === stopped.messageId)?.status).toBe("stopped");
    // Nothing left to stop, on either instance.
    expect(await (await request(b, "POST", `/api/messages/${projectId}/stop`)).json()).toEqual({ stopped: false, messageId: null });
  }, 60_000);

  test("a running message whose instance is gone: reattach answers 204 and Stop says nothing stopped, each after a short wait", async () => {
    const [, b] = instances as [Instance, Instance];
    const carol = b.user("carol");
    const projectId = await carol.project("Orphan");
    // A run claimed by an instance that then died: its message is 'running', and nobody has it.
    await b.deps.sql`
      insert into messages (id, project_id, role, content, status, created_at, updated_at)
      values (${crypto.randomUUID()}, ${projectId}, 'assistant', '', 'running', now(), now())`;
    const before = Date.now();
    const res = await as(carol.token)(b, "GET", `/api/messages/${projectId}/active`);
    expect(res.status).toBe(204);
    expect(Date.now() - before).toBeLessThan(10_000);
    // A Stop for it is not held for the whole stop wait either: nothing was stopped.
    const stopAt = Date.now();
    const stop = await as(carol.token)(b, "POST", `/api/messages/${projectId}/stop`);
    expect(await stop.json()).toEqual({ stopped: false, messageId: expect.any(String) });
    expect(Date.now() - stopAt).toBeLessThan(10_000);
  }, 30_000);
});
