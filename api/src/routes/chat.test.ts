// POST /api/messages/stream: what one send streams and saves (text, reasoning, tools, failures, images,
// bad input). chat-runs.test.ts: the run's life (sandbox tools, Stop, resume, abandoned runs, history).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import { chatTestApp, readEvents, textOf } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { imageForm, TINY_PNG } from "../test/images";

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
      "describe_database",
      "run_sql",
      "request_secret",
    ]);
  });

  test("reasoning: thinking events and saved thinking only when enableReasoning is on", async () => {
    const bob = t.user("bob");
    const projectId = await bob.project();
    model.enqueue(turn.steps({ reasoning: "Considering the request." }, { text: "Answer one" }));
    const on = await readEvents(await send(bob, { projectId, content: "Q1", enableReasoning: true }));
    expect(
      on
        .filter((e) => e.type === "thinking")
        .map((e) => (e as { content: string }).content)
        .join(""),
    ).toBe("Considering the request.");
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

  test("inline <think> in the answer's text: the saved answer has none of it; the thinking is streamed and saved only with enableReasoning", async () => {
    const dora = t.user("dora");
    const projectId = await dora.project();
    model.enqueue(turn.inlineThink("The user wants a greeting.", "Hello there!"));
    const on = await readEvents(await send(dora, { projectId, content: "Q1", enableReasoning: true }));
    expect(
      on
        .filter((e) => e.type === "thinking")
        .map((e) => (e as { content: string }).content)
        .join(""),
    ).toBe("The user wants a greeting.");
    expect(textOf(on)).toBe("Hello there!");
    model.enqueue(turn.inlineThink("Hidden reasoning.", "Hello again!"));
    const off = await readEvents(await send(dora, { projectId, content: "Q2" }));
    expect(off.some((e) => e.type === "thinking")).toBe(false);
    expect(textOf(off)).toBe("Hello again!");

    const saved = await messages(dora, projectId);
    expect(saved.map((m) => [m.role, m.content, m.thinking ?? null])).toEqual([
      ["user", "Q1", null],
      ["assistant", "Hello there!", "The user wants a greeting."],
      ["user", "Q2", null],
      ["assistant", "Hello again!", null],
    ]);
    expect(JSON.stringify(saved)).not.toMatch(/<\/?think>|Hidden reasoning/);
    // The history the model gets back holds the answer alone.
    expect(model.requests[1]!.body.messages.slice(1, 3)).toEqual([
      { role: "user", content: "Q1" },
      { role: "assistant", content: "Hello there!" },
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

    const toolResults = model.requests[2]!.body.messages.filter((m) => m.role === "tool")
      .slice(-3)
      .map((m) => String(m.content));
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
    expect(saved[2]!.content).toStartWith(
      "Here is the first half\n\n_(The connection to the model dropped; asking again.)_\n\nHere is\n\n**Error:** The model's answer was cut off",
    );
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
    const upload = await t.app.request("/api/upload/image", {
      method: "POST",
      body: imageForm(projectId, "shot.png"),
      headers: { authorization: `Bearer ${grace.token}` },
    });
    const { url } = (await upload.json()) as { url: string };

    model.enqueue(turn.text("A 1x1 image."));
    const events = await readEvents(await send(grace, { projectId, content: "", attachments: [url, url] }));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const last = model.requests[0]!.body.messages.at(-1)!;
    expect(last.role).toBe("user");
    const parts = last.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts[0]).toEqual({ type: "text", text: "(Image uploaded)" });
    expect(parts.slice(1).map((p) => p.image_url?.url)).toEqual([`data:image/png;base64,${Buffer.from(TINY_PNG).toString("base64")}`, expect.any(String)]);

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
      const res = await app.app.request("/api/upload/image", {
        method: "POST",
        body: imageForm(projectId, "shot.png"),
        headers: { authorization: `Bearer ${user.token}` },
      });
      return ((await res.json()) as { url: string }).url;
    };
    const imagePartsOf = (i: number) =>
      model.requests[i]!.body.messages.flatMap((m) =>
        Array.isArray(m.content) ? (m.content as { type: string }[]).filter((p) => p.type === "image_url") : [],
      );

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
      const events = await readEvents(
        await jay.request("POST", "/api/messages/stream", { projectId: blindProject, content: "What is this?", attachments: [blindUrl] }),
      );
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
