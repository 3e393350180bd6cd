import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import { chatTestApp, readEvents, textOf } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { sandboxSupport } from "../test/tool-harness";

const support = await sandboxSupport();
if (!support.ok) console.warn(`chat tests with sandbox tools skipped: local sandboxes are unavailable here (${support.why})`);

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

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

describe("POST /api/messages/stream", () => {
  test("text only: SSE data lines, then done; both messages saved (assistant complete, with usage)", async () => {
    const alice = t.user("alice");
    const projectId = await alice.project();
    model.enqueue(turn.steps({ text: "Hi! What shall we build?" }, { usage: { prompt_tokens: 50, completion_tokens: 7 } }));
    const res = await send(alice, { projectId, content: "Hello" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const events = await readEvents(res);
    expect(textOf(events)).toBe("Hi! What shall we build?");
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: "done", status: "complete", usage: { promptTokens: 50, completionTokens: 7, totalTokens: 57 } });

    const saved = await messages(alice, projectId);
    expect(saved.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "Hello", "complete"],
      ["assistant", "Hi! What shall we build?", "complete"],
    ]);
    expect(saved[1]!.id).toBe((done as { messageId: string }).messageId);
    expect(saved[1]!.usage).toEqual({ promptTokens: 50, completionTokens: 7, totalTokens: 57, model: "fake-model", cost: null });
    // The model saw the system prompt (project, tools) and the message.
    const sent = model.requests[0]!.body;
    expect(sent.messages[0]!.role).toBe("system");
    expect(String(sent.messages[0]!.content)).toContain("Chat test");
    expect(sent.messages.at(-1)).toEqual({ role: "user", content: "Hello" });
    expect(sent.tools?.map((x) => x.function.name)).toEqual([
      "create_boilerplate",
      "write_file",
      "edit_file",
      "read_file",
      "list_files",
      "run_shell",
      "run_code",
      "set_workflow_command",
      "read_logs",
      "get_problems",
      "restart_app",
    ]);
  });

  test("reasoning: thinking events and saved thinking only when enableReasoning is on", async () => {
    const bob = t.user("bob");
    const projectId = await bob.project();
    model.enqueue(turn.steps({ reasoning: "Considering the request." }, { text: "Answer one" }));
    const on = await readEvents(await send(bob, { projectId, content: "Q1", enableReasoning: true }));
    expect(on.filter((e) => e.type === "thinking").map((e) => (e as { content: string }).content).join("")).toBe("Considering the request.");
    model.enqueue(turn.steps({ reasoning: "Hidden." }, { text: "Answer two" }));
    const off = await readEvents(await send(bob, { projectId, content: "Q2" }));
    expect(off.some((e) => e.type === "thinking")).toBe(false);
    const saved = await messages(bob, projectId);
    expect(saved[1]!.thinking).toBe("Considering the request.");
    expect(saved[3]!.thinking).toBeNull();
    // Earlier turns go back to the model as history (without their reasoning).
    expect(model.requests[1]!.body.messages.slice(1, 3)).toEqual([
      { role: "user", content: "Q1" },
      { role: "assistant", content: "Answer one" },
    ]);
  });

  test("tool calls (several in one reply, arguments split): files written, steps streamed, badges saved; failures go to the model", async () => {
    const carol = t.user("carol");
    const projectId = await carol.project();
    model.enqueue(
      turn.toolCalls(
        [
          { name: "write_file", arguments: { path: "src/app.js", content: "console.log('hello');\n" }, chunkSize: 4 },
          { name: "write_file", arguments: { path: "README.md", content: "# App\n" }, chunkSize: 4 },
        ],
        "I'll create the files.",
      ),
      turn.toolCalls([
        { name: "edit_file", arguments: { path: "src/app.js", search: "hello", replace: "world" } },
        { name: "edit_file", arguments: { path: "src/app.js", search: "not there", replace: "x" } },
        { name: "write_file", arguments: '{"path": "broken.txt", "content": ' },
      ]),
      turn.text("Done: the app logs 'world'."),
    );
    const events = await readEvents(await send(carol, { projectId, content: "Make an app" }));
    const text = textOf(events);
    expect(text).toContain("I'll create the files.\nCreated src/app.js\nCreated README.md\n");
    expect(text).toContain("Edited src/app.js\n");
    expect(text).toEndWith("Done: the app logs 'world'.");
    expect(events.filter((e) => e.type === "tool_start").map((e) => (e as { summary: string }).summary)).toEqual([
      "src/app.js",
      "README.md",
      "src/app.js",
      "src/app.js",
      "(invalid arguments)",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });

    const stored = await files(carol, projectId);
    expect(stored.map((f) => f.path).sort()).toEqual(["README.md", "src/app.js"]);
    const app = stored.find((f) => f.path === "src/app.js")!;
    const content = (await (await carol.request("GET", `/api/files/${projectId}/${app.id}`)).json()) as { content: string };
    expect(content.content).toBe("console.log('world');\n");

    const toolResults = model.requests[2]!.body.messages.filter((m) => m.role === "tool").slice(-3).map((m) => String(m.content));
    expect(toolResults[0]).toStartWith("Edited src/app.js");
    expect(toolResults[1]).toContain("The search text was not found in src/app.js");
    expect(toolResults[2]).toContain("not valid JSON");

    const [, assistant] = await messages(carol, projectId);
    expect(assistant!.toolCalls.map((c) => [c.name, c.summary, c.status])).toEqual([
      ["write_file", "src/app.js", "completed"],
      ["write_file", "README.md", "completed"],
      ["edit_file", "src/app.js", "completed"],
      ["edit_file", "src/app.js", "completed"],
      ["write_file", "(invalid arguments)", "completed"],
    ]);
    expect(assistant!.toolCalls[0]!.result).toStartWith("Created src/app.js");
    expect(assistant!.toolCalls[3]!.result).toStartWith("Error:");
    expect(assistant!.actions.map((a) => a.description)).toEqual(["Created src/app.js", "Created README.md", "Edited src/app.js"]);
  });

  test("model failures end the run with an error event and a saved message saying what happened", async () => {
    const dave = t.user("dave");
    const projectId = await dave.project();

    model.enqueue(turn.http(500), turn.http(500), turn.http(500), turn.http(500));
    const failed = await readEvents(await send(dave, { projectId, content: "one" }));
    expect(failed.find((e) => e.type === "error")).toMatchObject({ message: expect.stringContaining("HTTP 500") });
    expect(failed.at(-1)).toMatchObject({ type: "done", status: "failed" });

    model.enqueue(turn.steps({ text: "Working on i" }, { streamError: { message: "Rate limit reached for requests", code: 429 } }));
    const limited = await readEvents(await send(dave, { projectId, content: "two" }));
    expect(limited.find((e) => e.type === "error")).toMatchObject({ message: expect.stringContaining("rate limited") });

    model.enqueue(turn.steps({ text: "Here is the first half" }, { cut: true }), turn.steps({ text: "Here is" }, { cut: true }));
    const cut = await readEvents(await send(dave, { projectId, content: "three" }));
    // Cut twice: the one re-ask (from the last complete step) is cut as well, and the run ends.
    expect(textOf(cut)).toStartWith("Here is the first half");
    expect(cut.find((e) => e.type === "error")).toMatchObject({ message: expect.stringContaining("cut off") });

    const saved = (await messages(dave, projectId)).filter((m) => m.role === "assistant");
    expect(saved.map((m) => m.status)).toEqual(["failed", "failed", "failed"]);
    expect(saved[0]!.content).toStartWith("**Error:** The model endpoint failed (HTTP 500)");
    expect(saved[1]!.content).toStartWith("Working on i\n\n**Error:** The model's answer was cut off: the model is rate limited");
    expect(saved[2]!.content).toStartWith("Here is the first half\n\n_(The connection to the model dropped; asking again.)_\n\nHere is\n\n**Error:** The model's answer was cut off");
  });

  test("the step cap ends a run that keeps calling tools, keeping what was done", async () => {
    const erin = t.user("erin");
    const projectId = await erin.project();
    model.respondWith((_b, i) => turn.toolCalls([{ name: "write_file", arguments: { path: `f${i}.txt`, content: "x" } }]));
    const events = await readEvents(await send(erin, { projectId, content: "loop forever" }));
    expect(model.requests).toHaveLength(4);
    expect(events.find((e) => e.type === "error")).toMatchObject({ message: expect.stringMatching(/^Stopped after 4 steps/) });
    expect((await files(erin, projectId)).length).toBe(4);
    const [, assistant] = await messages(erin, projectId);
    expect(assistant!.status).toBe("failed");
    expect(assistant!.content).toContain("Stopped after 4 steps");
  });

  test("bad input answers 400, a foreign project 404, no token 401", async () => {
    const frank = t.user("frank");
    const projectId = await frank.project();
    const empty = await send(frank, { projectId, content: "   " });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toContain("Type a message or attach an image");
    const tooMany = await send(frank, { projectId, content: "x", attachments: Array.from({ length: 6 }, (_, i) => `/a/${i}`) });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: string }).error).toContain("At most 5 images");
    const notOurs = await send(frank, { projectId, content: "x", attachments: ["https://example.com/cat.png"] });
    expect(notOurs.status).toBe(400);
    expect((await send(frank, { content: "x" })).status).toBe(400);

    const mallory = t.user("mallory");
    expect((await send(mallory, { projectId, content: "hi" })).status).toBe(404);
    expect((await mallory.request("GET", `/api/messages/${projectId}/active`)).status).toBe(404);
    expect((await mallory.request("POST", `/api/messages/${projectId}/stop`)).status).toBe(404);
    const anonymous = await t.app.request("/api/messages/stream", { method: "POST", body: JSON.stringify({ projectId, content: "x" }) });
    expect(anonymous.status).toBe(401);
    expect(await messages(frank, projectId)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  test("images: uploaded first, sent to the model as base64 image parts; images alone send '(Image uploaded)'", async () => {
    const grace = t.user("grace");
    const projectId = await grace.project();
    const form = new FormData();
    form.set("file", new File([PNG], "shot.png", { type: "image/png" }));
    form.set("projectId", projectId);
    const upload = await t.app.request("/api/upload/image", { method: "POST", body: form, headers: { authorization: `Bearer ${grace.token}` } });
    const { url } = (await upload.json()) as { url: string };

    model.enqueue(turn.text("A 1x1 image."));
    const events = await readEvents(await send(grace, { projectId, content: "", attachments: [url, url] }));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const last = model.requests[0]!.body.messages.at(-1)!;
    expect(last.role).toBe("user");
    const parts = last.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts[0]).toEqual({ type: "text", text: "(Image uploaded)" });
    expect(parts.slice(1).map((p) => p.image_url?.url)).toEqual([`data:image/png;base64,${Buffer.from(PNG).toString("base64")}`, expect.any(String)]);

    const [user] = await messages(grace, projectId);
    expect(user!.content).toBe("(Image uploaded)");
    // Listing signs image URLs afresh (their expiry moves), so compare what they point at.
    const withoutSignature = (u: string) => u.split("?")[0];
    expect(user!.attachments.map(withoutSignature)).toEqual([url, url].map(withoutSignature));
    // Sent with a message, the upload is kept: the sweep of unattached uploads leaves it alone.
    const [row] = await t.deps.sql<{ attached: boolean }[]>`select attached_at is not null as attached from uploads where project_id = ${projectId}`;
    expect(row).toEqual({ attached: true });

    // Another project's image (or a tampered link) is refused before anything is stored.
    const other = await grace.project("Other");
    expect((await send(grace, { projectId: other, content: "see", attachments: [url] })).status).toBe(400);
    expect((await send(grace, { projectId, content: "see", attachments: [url.replace(/sig=[^&]+/, "sig=AAAA")] })).status).toBe(400);
  });

  test("images go only with the message they were attached to; without vision they are not sent and the model is told", async () => {
    const upload = async (app: typeof t, user: ReturnType<typeof t.user>, projectId: string) => {
      const form = new FormData();
      form.set("file", new File([PNG], "shot.png", { type: "image/png" }));
      form.set("projectId", projectId);
      const res = await app.app.request("/api/upload/image", { method: "POST", body: form, headers: { authorization: `Bearer ${user.token}` } });
      return ((await res.json()) as { url: string }).url;
    };
    const imagePartsOf = (i: number) =>
      model.requests[i]!.body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string }[]).filter((p) => p.type === "image_url") : []));

    const ivy = t.user("ivy");
    const projectId = await ivy.project();
    const url = await upload(t, ivy, projectId);
    model.enqueue(turn.text("I see it."), turn.text("Sure."));
    await readEvents(await send(ivy, { projectId, content: "What is this?", attachments: [url] }));
    await readEvents(await send(ivy, { projectId, content: "Make it blue" }));
    expect(imagePartsOf(0)).toHaveLength(1);
    expect(imagePartsOf(1)).toHaveLength(0);
    expect(model.requests[1]!.body.messages.map((m) => String(m.content))).toContain("What is this?\n[1 image attached]");

    const blind = await chatTestApp({ model, env: { MODEL_VISION: "false" } });
    try {
      const jay = blind.user("jay");
      const blindProject = await jay.project();
      const blindUrl = await upload(blind, jay, blindProject);
      model.reset();
      model.enqueue(turn.text("I cannot see images."));
      const events = await readEvents(await jay.request("POST", "/api/messages/stream", { projectId: blindProject, content: "What is this?", attachments: [blindUrl] }));
      expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
      expect(imagePartsOf(0)).toHaveLength(0);
      expect(model.requests[0]!.body.messages.at(-1)!.content).toBe(
        "What is this?\n\n[The user attached a picture, but this model cannot see images: say so if the request depends on it.]",
      );
    } finally {
      await blind.close();
    }
  });

  test("without a configured model: an error event naming the variables; the user message is still saved", async () => {
    const bare = await chatTestApp({ model: null });
    try {
      const henry = bare.user("henry");
      const projectId = await henry.project();
      const events = await readEvents(await henry.request("POST", "/api/messages/stream", { projectId, content: "Build me a game" }));
      const error = events.find((e) => e.type === "error") as { message: string };
      expect(error.message).toContain("OPENAI_API_KEY");
      expect(error.message).toContain("OPENAI_BASE_URL");
      expect(error.message).toContain("OPENAI_MODEL");
      expect(events.at(-1)).toMatchObject({ type: "done", status: "failed" });
      const saved = (await (await henry.request("GET", `/api/messages/${projectId}`)).json()) as Message[];
      expect(saved.map((m) => [m.role, m.status])).toEqual([
        ["user", "complete"],
        ["assistant", "failed"],
      ]);
      expect(saved[0]!.content).toBe("Build me a game");
    } finally {
      await bare.close();
    }
  });
});

describe("with the project's sandbox", () => {
  test.skipIf(!support.ok)("create_boilerplate then run_shell: live 'Creating …' step, completed steps saved, the app answers", async () => {
    const olga = t.user("olga");
    const projectId = await olga.project();
    model.enqueue(
      turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "node" } }], "Starting from the Node template."),
      turn.toolCalls([{ name: "run_shell", arguments: { command: "sleep 0.5; node -e \"fetch('http://127.0.0.1:3000/').then((r) => console.log('status', r.status))\"" } }]),
      turn.text("Your server is running."),
    );
    const events = await readEvents(await send(olga, { projectId, content: "A node server please" }));
    expect(events.find((e) => e.type === "chunk" && e.step === "in_progress")).toMatchObject({ content: "\nCreating Node.js app from the node template\n" });
    const completed = events.filter((e) => e.type === "tool_complete") as { name: string; result: string }[];
    expect(completed.map((e) => e.name)).toEqual(["create_boilerplate", "run_shell"]);
    expect(completed[1]!.result).toContain("status 200");
    const [, assistant] = await messages(olga, projectId);
    expect(assistant!.content).toMatch(/^Starting from the Node template\.\nCreated Node\.js app \(\d+ files\)\nInstalled dependencies\nConfigured workflow: node --watch server\.js\nStarted: node --watch server\.js\nRan shell: sleep 0\.5;/);
    expect(assistant!.content).not.toContain("Creating");
    expect((await files(olga, projectId)).map((f) => f.path)).toContain("server.js");
    const project = (await (await olga.request("GET", `/api/projects/${projectId}`)).json()) as { sandboxId: string | null; workflowCommand: string };
    expect(project.sandboxId).toBeTruthy();
    expect(project.workflowCommand).toBe("node --watch server.js");
  }, 60_000);
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
      expect((await res.json()) as object).toEqual({ code: "conflict", error: expect.stringContaining("still working on this project") });
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
    const small = await chatTestApp({ model, agent: { limits: { contextTokens: 9_000 } } });
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
        await insert(i, role, `message ${i} ${"some words ".repeat(18)}`, role === "assistant" ? [{ name: "read_file", summary: `f${i}`, status: "completed", result }] : [], i - 100);
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
      expect(JSON.stringify(sent).length / 4).toBeLessThan(9_000 - 4_096);
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
