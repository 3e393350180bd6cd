/**
 * Debian's `caddy` with the project's Caddyfile (plain HTTP: the port in DOMAIN and HTTP_PORT) in front of
 * TWO real app processes on one PostgreSQL (TEST_DATABASE_URL), started together so their migrations race.
 * Checks through Caddy: REST, requests spread over both instances, an SSE chat stream arriving chunk by
 * chunk, the file-event WebSocket fed by writes on either instance, a preview host; then one instance is
 * SIGKILLed mid-answer: the other keeps serving, the answer is marked failed once stale, and the user can
 * send again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { WS_PROTOCOL } from "@shared/events/project-events";
import { ABANDONED_NOTE } from "../api/src/services/chat-runs";
import { processUser, scratchDatabase, startAppProcess, unusedPort, type AppProcess } from "../api/src/test/app-process";
import { startFakeModelServer, turn, type FakeModelServer } from "../api/src/test/fake-model-server";
import { readSse } from "../api/src/test/sse-reader";

const ROOT = resolve(import.meta.dir, "..");
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!onPostgres) console.warn("scripts/caddy.test.ts skipped: set TEST_DATABASE_URL (two instances need one real PostgreSQL).");

let model: FakeModelServer;
let db: Awaited<ReturnType<typeof scratchDatabase>>;
let instances: AppProcess[] = [];
let caddy: ReturnType<typeof Bun.spawn> | null = null;
let caddyLog = "";
let caddyHome = "";
let site = ""; // http://localhost:<port>

const user = processUser("alice");
const json = { ...user.auth, "content-type": "application/json" };
const api = (path: string, init: RequestInit = {}) => fetch(`${site}${path}`, { ...init, headers: { ...json, ...(init.headers as Record<string, string>) } });
const instanceOf = async (res: Response) => ((await res.json()) as { instance: string }).instance;

describe.skipIf(!onPostgres)("Caddy in front of two app instances", () => {
  beforeAll(async () => {
    model = await startFakeModelServer();
    db = await scratchDatabase();
    const env = {
      DATABASE_URL: db!.url,
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "test-key",
      OPENAI_MODEL: "fake-model",
      PREVIEW_DOMAIN: "localhost",
      // Short, so a dead instance's answer is marked failed within the test.
      RUN_STALE_SECONDS: "2",
    };
    instances = await Promise.all([startAppProcess(env), startAppProcess(env)]);

    const port = unusedPort();
    site = `http://localhost:${port}`;
    caddyHome = mkdtempSync(join(tmpdir(), "caddy-test-"));
    caddy = Bun.spawn(["caddy", "run", "--config", join(ROOT, "Caddyfile"), "--adapter", "caddyfile"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: caddyHome,
        XDG_DATA_HOME: join(caddyHome, "data"),
        XDG_CONFIG_HOME: join(caddyHome, "config"),
        DOMAIN: `localhost:${port}`,
        HTTP_PORT: String(port),
        APP_UPSTREAMS: instances.map((i) => `127.0.0.1:${i.port}`).join(" "),
        CADDY_ADMIN: "off",
        // Debian's caddy has no DNS plugin; on plain HTTP no certificate is used anyway.
        WILDCARD_TLS: "internal",
      },
      stdout: "ignore",
      stderr: "pipe",
    });
    void new Response(caddy.stderr as ReadableStream<Uint8Array>).text().then((text) => (caddyLog = text));
    const deadline = Date.now() + 10_000;
    for (;;) {
      const ok = await fetch(`${site}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`Caddy did not answer within 10 s:\n${caddyLog}`);
      await Bun.sleep(100);
    }
  }, 60_000);

  afterAll(async () => {
    caddy?.kill("SIGTERM");
    await caddy?.exited;
    for (const i of instances) i.kill("SIGTERM");
    await Promise.all(instances.map((i) => i.exited));
    await model?.close();
    await db?.drop();
    if (caddyHome) rmSync(caddyHome, { recursive: true, force: true });
  }, 30_000);

  let projectId = "";

  test("a REST call through Caddy, and requests spread over both instances", async () => {
    const created = await api("/api/projects", { method: "POST", body: JSON.stringify({ name: "Through Caddy" }) });
    expect(created.status).toBe(201);
    projectId = (await created.json()).id;
    const list = await api("/api/projects");
    expect(list.status).toBe(200);
    expect((await list.json()).map((p: { id: string }) => p.id)).toContain(projectId);

    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add(await instanceOf(await fetch(`${site}/api/health`)));
    expect(seen.size).toBe(2);
    // Each instance answered: their own logs show the API calls made through Caddy.
    for (const instance of instances) expect(instance.lines.some((l) => l.includes('"path":"/api/health"'))).toBe(true);
    // The metrics stay on the instances.
    expect((await fetch(`${site}/metrics`)).status).toBe(404);
  });

  test("an SSE chat stream arrives chunk by chunk, not all at the end", async () => {
    model.enqueue(turn.steps({ text: "one" }, { delayMs: 300 }, { text: " two" }, { delayMs: 300 }, { text: " three" }));
    const res = await api("/api/messages/stream", { method: "POST", body: JSON.stringify({ projectId, content: "Count" }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const stream = readSse(res);
    const done = await stream.next((e) => e.type === "done");
    expect(done).toMatchObject({ status: "complete" });
    expect(stream.text()).toBe("one two three");
    const first = stream.events.findIndex((e) => e.type === "chunk");
    const doneAt = stream.times[stream.events.indexOf(done)]!;
    // The model paused 600 ms in all: unbuffered, the first words came that much before the end.
    expect(doneAt - stream.times[first]!).toBeGreaterThan(450);
  });

  test("the WebSocket through Caddy receives file events from writes made on either instance", async () => {
    const ws = new WebSocket(`${site.replace("http", "ws")}/api/ws`, [WS_PROTOCOL, user.token]);
    const messages: { type: string; file?: { path: string } }[] = [];
    ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
    await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
    ws.send(JSON.stringify({ type: "subscribe", projectId }));
    await waitFor(() => messages.some((m) => m.type === "subscribed"), "subscribed");

    // One write straight to each instance: whichever one holds the socket, the other's write crosses over.
    for (const [i, instance] of instances.entries()) {
      const res = await fetch(`${instance.url}/api/files/${projectId}`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ path: `from-${i}.txt`, content: "hi" }),
      });
      expect(res.status).toBe(201);
    }
    await waitFor(() => ["from-0.txt", "from-1.txt"].every((p) => messages.some((m) => m.type === "file.created" && m.file?.path === p)), "both file events");
    ws.close();
  });

  test("a preview host reaches the app's preview proxy", async () => {
    const port = new URL(site).port;
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { host: `5173-abcdef0123456789.localhost:${port}` } });
    // The app's preview proxy answers (its own page, not Caddy's): with several instances it checks that some
    // project names the sandbox on every request, and no project names this made-up one.
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("There is no such preview");
  });

  test("an instance killed mid-answer: the other serves on, the answer is marked failed once stale, and the user can send again", async () => {
    model.enqueue(turn.steps({ text: "Working on it." }, { delayMs: 30_000 }, { text: " never sent" }));
    const requestId = `caddy-kill-${crypto.randomUUID()}`;
    const res = await api("/api/messages/stream", {
      method: "POST",
      headers: { "x-request-id": requestId },
      body: JSON.stringify({ projectId, content: "Long job" }),
    });
    expect(res.status).toBe(200);
    const stream = readSse(res);
    await stream.next((_, text) => text.includes("Working on it."));
    // The answer is saved as it goes (streamed text within a second): wait until the database has it.
    await waitFor(async () => {
      const list = (await (await api(`/api/messages/${projectId}`)).json()) as { status: string; content: string }[];
      return list.at(-1)?.status === "running" && list.at(-1)?.content === "Working on it.";
    }, "the partial answer saved");

    // Caddy passed our request id on: the instance that logged it owns the run.
    const owner = instances.find((i) => i.lines.some((l) => l.includes(requestId)))!;
    expect(owner).toBeDefined();
    const survivor = instances.find((i) => i !== owner)!;
    owner.kill("SIGKILL");
    await owner.exited;
    // The stream ends (Caddy closes it, or the connection breaks) without a `done`.
    await stream.ended.catch(() => {});
    expect(stream.events.some((e) => e.type === "done")).toBe(false);

    // Every request through Caddy is answered, by the survivor.
    const survivorId = await instanceOf(await fetch(`${survivor.url}/api/health`));
    for (let i = 0; i < 4; i++) {
      const health = await fetch(`${site}/api/health`);
      expect(health.status).toBe(200);
      expect(await instanceOf(health)).toBe(survivorId);
    }
    expect((await api("/api/projects")).status).toBe(200);

    // Nobody sends: the survivor's sweep marks the dead instance's answer failed, keeping what it had written.
    let last: { role: string; status: string; content: string } | undefined;
    await waitFor(
      async () => {
        const list = (await (await api(`/api/messages/${projectId}`)).json()) as { role: string; status: string; content: string }[];
        last = list.at(-1);
        return last?.status === "failed";
      },
      "the abandoned answer marked failed",
      10_000,
    );
    expect(last!.content).toBe(`Working on it.\n\n${ABANDONED_NOTE}`);

    // And the project takes a new message.
    model.enqueue(turn.text("Back again."));
    const again = await api("/api/messages/stream", { method: "POST", body: JSON.stringify({ projectId, content: "Try again" }) });
    expect(again.status).toBe(200);
    const retry = readSse(again);
    expect(await retry.next((e) => e.type === "done")).toMatchObject({ status: "complete" });
    expect(retry.text()).toBe("Back again.");
  }, 30_000);
});

async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}
