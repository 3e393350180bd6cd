// POST /api/messages/stream as a run's life goes: tools in the project's sandbox, a second send, Stop,
// resume after a dropped connection, an abandoned run, and a history trimmed to the context budget.
// (chat.test.ts: what one send streams and saves.)
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import { chatTestApp, readEvents, textOf } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { sandboxSupport } from "../test/tool-harness";

const support = await sandboxSupport();
if (!support.ok) console.warn(`chat tests with sandbox tools skipped: local sandboxes are unavailable here (${support.why})`);

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model, agent: { limits: { maxSteps: 4, contextTokens: 32_000 } } });
}, 60_000);
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => model.reset());

type ChatUser = ReturnType<typeof t.user>;
const send = (u: ChatUser, body: Record<string, unknown>) => u.request("POST", "/api/messages/stream", body);
const messages = async (u: ChatUser, projectId: string) => (await (await u.request("GET", `/api/messages/${projectId}`)).json()) as Message[];
const files = async (u: ChatUser, projectId: string) => (await (await u.request("GET", `/api/files/${projectId}`)).json()) as { path: string; id: string }[];

describe("with the project's sandbox", () => {
  test.skipIf(!support.ok)(
    "create_boilerplate then run_shell: live 'Creating …' step, completed steps saved, the app answers",
    async () => {
      const olga = t.user("olga");
      const projectId = await olga.project();
      model.enqueue(
        turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "node" } }], "Starting from the Node template."),
        turn.toolCalls([
          { name: "run_shell", arguments: { command: "sleep 0.5; node -e \"fetch('http://127.0.0.1:3000/').then((r) => console.log('status', r.status))\"" } },
        ]),
        turn.text("Your server is running."),
      );
      const events = await readEvents(await send(olga, { projectId, content: "A node server please" }));
      expect(events.find((e) => e.type === "chunk" && e.step === "in_progress")).toMatchObject({ content: "\nCreating Node.js app from the node template\n" });
      const completed = events.filter((e) => e.type === "tool_complete") as { name: string; result: string }[];
      expect(completed.map((e) => e.name)).toEqual(["create_boilerplate", "run_shell"]);
      expect(completed[1]!.result).toContain("status 200");
      const [, assistant] = await messages(olga, projectId);
      expect(assistant!.content).toMatch(
        /^Starting from the Node template\.\nCreated Node\.js app \(\d+ files\)\nInstalled dependencies\nConfigured workflow: node --watch server\.js\nStarted: node --watch server\.js\nRan shell: sleep 0\.5;/,
      );
      expect(assistant!.content).not.toContain("Creating");
      expect((await files(olga, projectId)).map((f) => f.path)).toContain("server.js");
      const project = (await (await olga.request("GET", `/api/projects/${projectId}`)).json()) as { sandboxId: string | null; workflowCommand: string };
      expect(project.sandboxId).toBeTruthy();
      expect(project.workflowCommand).toBe("node --watch server.js");
    },
    60_000,
  );
});

describe("runs outlive the request", () => {
  test("a second send while a run works answers 409 with a readable message; afterwards sending works again", async () => {
    const ivan = t.user("ivan");
    const projectId = await ivan.project();
    model.enqueue(turn.steps({ text: "Slow" }, { delayMs: 400 }, { text: " answer" }));
    const first = await send(ivan, { projectId, content: "first" });
    const [a, b] = await Promise.all([send(ivan, { projectId, content: "second" }), send(ivan, { projectId, content: "third" })]);
    for (const res of [a, b]) {
      expect(res.status).toBe(409);
      expect((await res.json()) as object).toEqual({
        code: "conflict",
        error: expect.stringMatching(/^ivan is running the agent on this project \("first"\)\. Wait for it/),
      });
    }
    expect(textOf(await readEvents(first))).toBe("Slow answer");
    model.enqueue(turn.text("Now free"));
    expect(textOf(await readEvents(await send(ivan, { projectId, content: "fourth" })))).toBe("Now free");
    expect((await messages(ivan, projectId)).map((m) => m.content)).toEqual(["first", "Slow answer", "fourth", "Now free"]);
  });

  test("Stop cancels the run: partial answer kept and marked stopped; the stream ends with done", async () => {
    const judy = t.user("judy");
    const projectId = await judy.project();
    model.enqueue(turn.steps({ text: "Partial work" }, { delayMs: 3_000 }, { text: " never sent" }));
    const res = await send(judy, { projectId, content: "long task" });
    const reading = readEvents(res);
    await Bun.sleep(150);
    const stop = await judy.request("POST", `/api/messages/${projectId}/stop`);
    expect(await stop.json()).toEqual({ stopped: true, messageId: expect.any(String) });
    const events = await reading;
    expect(textOf(events)).toBe("Partial work");
    expect(events.at(-1)).toMatchObject({ type: "done", status: "stopped" });
    const [, assistant] = await messages(judy, projectId);
    expect(assistant!.status).toBe("stopped");
    expect(assistant!.content).toBe("Partial work\n\n_(Stopped by the user.)_");
    expect(await (await judy.request("POST", `/api/messages/${projectId}/stop`)).json()).toEqual({ stopped: false, messageId: null });
    expect((await judy.request("GET", `/api/messages/${projectId}/active`)).status).toBe(204);
  });

  test("resume: the browser drops the connection, the run finishes and is saved; /active replays what was sent, then the rest", async () => {
    const kate = t.user("kate");
    const projectId = await kate.project();
    model.enqueue(
      turn.toolCalls([{ name: "write_file", arguments: { path: "index.html", content: "<h1>Hi</h1>" } }], "Starting."),
      turn.steps({ delayMs: 400 }, { text: "Finished the page." }),
    );
    const drop = new AbortController();
    const res = await kate.fetch("POST", "/api/messages/stream", { projectId, content: "make a page" }, drop.signal);
    const early = await readEvents(res, (e) => e.type === "tool_complete");
    drop.abort();
    expect(textOf(early)).toContain("Starting.");

    const active = await kate.fetch("GET", `/api/messages/${projectId}/active`);
    expect(active.status).toBe(200);
    const replayed = await readEvents(active);
    expect(replayed.slice(0, early.length)).toEqual(early); // everything already sent, in order
    expect(textOf(replayed)).toBe("Starting.\nCreated index.html\n\nFinished the page.");
    expect(replayed.at(-1)).toMatchObject({ type: "done", status: "complete" });

    expect((await kate.fetch("GET", `/api/messages/${projectId}/active`)).status).toBe(204);
    const saved = await messages(kate, projectId);
    expect(saved[1]).toMatchObject({ status: "complete", content: "Starting.\nCreated index.html\n\nFinished the page." });
    expect((await files(kate, projectId)).map((f) => f.path)).toEqual(["index.html"]);
  });

  test("a client that disconnects without resuming: the run still completes and is saved", async () => {
    const leo = t.user("leo");
    const projectId = await leo.project();
    model.enqueue(turn.steps({ text: "Begin" }, { delayMs: 300 }, { text: " and end." }));
    const drop = new AbortController();
    const res = await leo.fetch("POST", "/api/messages/stream", { projectId, content: "go" }, drop.signal);
    await readEvents(res, (e) => e.type === "chunk");
    drop.abort();
    for (let i = 0; i < 50 && (await messages(leo, projectId))[1]?.status === "running"; i++) await Bun.sleep(50);
    expect((await messages(leo, projectId))[1]).toMatchObject({ status: "complete", content: "Begin and end." });
  });

  test("a run left 'running' by a server that died is taken as abandoned, and the project can chat again", async () => {
    const mia = t.user("mia");
    const projectId = await mia.project();
    const id = crypto.randomUUID();
    await t.deps.sql`insert into messages (id, project_id, role, content, status, updated_at)
      values (${id}, ${projectId}, 'assistant', 'half', 'running', now() - interval '1 hour')`;
    model.enqueue(turn.text("Fresh start"));
    expect(textOf(await readEvents(await send(mia, { projectId, content: "again" })))).toBe("Fresh start");
    const old = (await messages(mia, projectId)).find((m) => m.id === id)!;
    expect(old.status).toBe("failed");
    expect(old.content).toContain("the server running this answer stopped");
  });
});

describe("history", () => {
  test("a long chat is trimmed to the context budget (oldest tool results first, then oldest messages) instead of failing", async () => {
    // A window that leaves about 1k tokens for the history beside the system prompt, the tool schemas and a
    // configured 4,096-token output limit.
    const small = await chatTestApp({ model, agent: { maxOutputTokensConfigured: true, limits: { contextTokens: 8_200, maxOutputTokens: 4_096 } } });
    try {
      const nora = small.user("nora");
      const projectId = await nora.project();
      const insert = (i: number, role: "user" | "assistant", content: string, tools: unknown[], minutesFromNow: number) =>
        small.deps.sql`insert into messages (id, project_id, role, content, tool_calls, created_at)
          values (${crypto.randomUUID()}, ${projectId}, ${role}, ${content}, ${small.deps.sql.json(tools as never)},
                  now() + make_interval(mins => ${minutesFromNow}))`;
      const result = "a tool result line ".repeat(95).trim();
      for (let i = 0; i < 12; i++) {
        const role = i % 2 ? "assistant" : "user";
        await insert(
          i,
          role,
          `message ${i} ${"some words ".repeat(18)}`,
          role === "assistant" ? [{ name: "read_file", summary: `f${i}`, status: "completed", result }] : [],
          i - 100,
        );
      }
      model.enqueue(turn.text("Still fine"));
      expect(textOf(await readEvents(await nora.request("POST", "/api/messages/stream", { projectId, content: "latest" })))).toBe("Still fine");
      let sent = model.requests[0]!.body.messages;
      let history = sent.slice(1, -1).map((m) => String(m.content));
      // Every message is still there; the oldest tool results made room, the newest is kept.
      expect(history).toHaveLength(12);
      expect(history[1]).toContain("Used read file on f1 (result left out to save space).");
      expect(history[11]).toContain(`Used read file on f11. Result: ${result}`);
      expect(String(sent[0]!.content)).toContain("Some older tool results were removed");

      // Much more chat: the older messages no longer fit. They are summarised by the model (a request
      // without tools), the note is stored, and it stands in for them in the system prompt.
      for (let i = 0; i < 20; i++) await insert(i, i % 2 ? "assistant" : "user", `later ${i} ${"a line of later chat ".repeat(50)}`, [], i + 1);
      model.enqueue(turn.text("NOTE: the user built a todo app; files f1-f11 were read."), turn.text("Fine again"));
      expect(textOf(await readEvents(await nora.request("POST", "/api/messages/stream", { projectId, content: "newest" })))).toBe("Fine again");
      const summaryRequest = model.requests[1]!.body;
      expect(summaryRequest.tools).toBeUndefined();
      expect(JSON.stringify(summaryRequest.messages)).toMatch(/Messages to summarise:.*message \d+ some words/);
      sent = model.requests[2]!.body.messages;
      history = sent.slice(1, -1).map((m) => String(m.content));
      expect(history.length).toBeLessThan(20);
      expect(history.at(-1)).toStartWith("later 19");
      expect(String(sent[0]!.content)).toContain("Summary of the earlier part of this chat (those messages are not shown):\nNOTE: the user built a todo app");
      expect(sent.at(-1)).toEqual({ role: "user", content: "newest" });
      expect(JSON.stringify(sent).length / 4).toBeLessThan(8_200 - 4_096);
      const stored = await small.deps.store.get(`projects/${projectId}/agent/conversation-summary.json`);
      expect(JSON.parse(new TextDecoder().decode(stored!))).toMatchObject({ content: "NOTE: the user built a todo app; files f1-f11 were read." });

      // The next run reuses the stored note: no new summary request while the rest fits.
      model.enqueue(turn.text("Still here"));
      expect(textOf(await readEvents(await nora.request("POST", "/api/messages/stream", { projectId, content: "one more" })))).toBe("Still here");
      expect(model.requests).toHaveLength(4);
      expect(String(model.requests[3]!.body.messages[0]!.content)).toContain("NOTE: the user built a todo app");
    } finally {
      await small.close();
    }
  });
});
