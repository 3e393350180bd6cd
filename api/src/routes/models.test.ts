/**
 * Model choice and token use through the real app and the scripted model server: the project's chosen
 * model is the one the endpoint receives, each answer keeps its tokens (reported, else counted) and cost,
 * the context meter reads the conversation, and the monthly budget answers 429 once spent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Message } from "@shared/schemas/message";
import type { ProjectModel } from "@shared/schemas/model";
import { errorBody } from "../test/api-client";
import { chatTestApp, readEvents } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({
    model,
    env: {
      MODELS: "fake-model,fake-model-large",
      MODEL_PRICES: "fake-model-large=3/15,fake-model=0/0",
      USER_MONTHLY_TOKENS: "1000",
      MODEL_CONTEXT_TOKENS: "20000",
    },
    agent: { limits: { maxSteps: 4 } },
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => model.reset());

type ChatUser = ReturnType<typeof t.user>;
const json = async <T>(res: Response, status = 200): Promise<T> => {
  expect(res.status).toBe(status);
  return (await res.json()) as T;
};
const run = async (u: ChatUser, projectId: string, content = "Hello") => {
  const res = await u.request("POST", "/api/messages/stream", { projectId, content });
  expect(res.status).toBe(200);
  return readEvents(res);
};
/** A typed client's answer, after checking its status: its JSON typed by the route. */
const answer = async <T>(res: { status: number; json(): Promise<T> }, status = 200): Promise<T> => {
  expect(res.status).toBe(status);
  return res.json();
};
const lastAnswer = async (u: ChatUser, projectId: string) =>
  (await json<Message[]>(await u.request("GET", `/api/messages/${projectId}`))).filter((m) => m.role === "assistant").at(-1)!;

describe("GET|PUT /api/projects/{id}/model", () => {
  test("the default first; a model from MODELS is stored, and the run sends it to the endpoint", async () => {
    const alice = t.user("alice");
    const id = await alice.project();
    const route = alice.api.projects[":id"].model;
    expect(await answer(await route.$get({ param: { id } }))).toEqual({
      model: "fake-model",
      models: ["fake-model", "fake-model-large"],
    });

    model.enqueue(turn.steps({ text: "Default model here." }, { usage: { prompt_tokens: 10, completion_tokens: 5 } }));
    await run(alice, id);
    expect(model.requests.at(-1)!.body.model).toBe("fake-model");

    expect(await answer(await route.$put({ param: { id }, json: { model: "fake-model-large" } }))).toEqual({
      model: "fake-model-large",
      models: ["fake-model", "fake-model-large"],
    });
    expect((await answer(await route.$get({ param: { id } }))).model).toBe("fake-model-large");
    model.enqueue(turn.steps({ text: "Large model here." }, { usage: { prompt_tokens: 100, completion_tokens: 20 } }));
    await run(alice, id, "Again");
    expect(model.requests.at(-1)!.body.model).toBe("fake-model-large");
    // Another project of the same user keeps the default.
    const other = await alice.project("Other");
    expect((await answer(await route.$get({ param: { id: other } }))).model).toBe("fake-model");
  });

  test("a model the server does not offer is refused with a 400 naming the choices", async () => {
    const alice = t.user("alice");
    const id = await alice.project();
    const route = alice.api.projects[":id"].model;
    const refused = await route.$put({ param: { id }, json: { model: "gpt-4o" } });
    expect(refused.status).toBe(400);
    expect(await errorBody(refused)).toEqual({
      code: "bad_request",
      error: 'The model "gpt-4o" is not offered on this server. Choose one of: fake-model, fake-model-large.',
    });
    expect((await route.$put({ param: { id }, json: { model: "" } })).status).toBe(400);
    expect((await answer(await route.$get({ param: { id } }))).model).toBe("fake-model");
  });

  test("a stored choice the server no longer offers (MODELS changed) reads as the default, and runs use the default", async () => {
    const alice = t.user("alice");
    const id = await alice.project();
    await t.db.sql`update projects set model = 'retired-model' where id = ${id}`;
    expect((await json<ProjectModel>(await alice.request("GET", `/api/projects/${id}/model`))).model).toBe("fake-model");
    model.enqueue(turn.text("Still here."));
    await run(alice, id);
    expect(model.requests.at(-1)!.body.model).toBe("fake-model");
  });

  test("owner-checked: another user's project (and a made-up id) answers 404 on every route; no token answers 401", async () => {
    const alice = t.user("alice");
    const bob = t.user("bob");
    const id = await alice.project();
    for (const [method, path, body] of [
      ["GET", `/api/projects/${id}/model`],
      ["PUT", `/api/projects/${id}/model`, { model: "fake-model-large" }],
      ["GET", `/api/projects/${id}/context`],
      ["GET", `/api/projects/not-a-uuid/context`],
    ] as const) {
      expect((await bob.request(method, path, body)).status).toBe(404);
      expect((await t.app.request(path, { method })).status).toBe(401);
    }
    expect((await t.app.request("/api/usage")).status).toBe(401);
    expect((await json<ProjectModel>(await alice.request("GET", `/api/projects/${id}/model`))).model).toBe("fake-model");
  });
});

describe("tokens and cost per answer", () => {
  test("the endpoint's reported usage is saved with the answer, with its model and cost (MODEL_PRICES)", async () => {
    const alice = t.user("alice");
    const id = await alice.project();
    await alice.request("PUT", `/api/projects/${id}/model`, { model: "fake-model-large" });
    model.enqueue(turn.steps({ text: "Priced." }, { usage: { prompt_tokens: 1_000, completion_tokens: 200 } }));
    const events = await run(alice, id);
    // 1,000 × $3 + 200 × $15 per 1M tokens.
    const usage = { promptTokens: 1_000, completionTokens: 200, totalTokens: 1_200, model: "fake-model-large", cost: 0.006 };
    expect(events.at(-1)).toMatchObject({ type: "done", usage });
    expect((await lastAnswer(alice, id)).usage).toEqual(usage);
    // stream_options was asked for, so OpenAI-style endpoints report it.
    expect(model.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
  });

  test("an endpoint that reports no usage: the tokenizer's count is saved, marked estimated", async () => {
    const alice = t.user("alice");
    const id = await alice.project();
    model.enqueue(turn.text("An answer from a server that reports no usage at all."));
    await run(alice, id);
    const usage = (await lastAnswer(alice, id)).usage!;
    expect(usage).toMatchObject({ estimated: true, model: "fake-model", cost: 0 });
    // The system prompt and tool schemas alone are well over a thousand tokens; the answer about a dozen.
    expect(usage.promptTokens).toBeGreaterThan(1_000);
    expect(usage.completionTokens).toBeGreaterThan(5);
    expect(usage.completionTokens).toBeLessThan(40);
    expect(usage.totalTokens).toBe(usage.promptTokens + usage.completionTokens);
  });
});

describe("GET /api/projects/{id}/context", () => {
  test("the next request's tokens for the conversation against the window, growing with the chat", async () => {
    const alice = t.user("alice");
    const id = await alice.project();
    const context = () => alice.api.projects[":id"].context.$get({ param: { id } });
    const before = await answer(await context());
    expect(before).toMatchObject({ model: "fake-model", contextTokens: 20_000 });
    expect(before.usedTokens).toBeGreaterThan(500);
    expect(before.usedTokens).toBeLessThan(20_000);
    model.enqueue(turn.text("x ".repeat(2_000)));
    await run(alice, id, "Write a long answer");
    const after = await answer(await context());
    expect(after.usedTokens).toBeGreaterThan(before.usedTokens + 1_500);
  });
});

describe("USER_MONTHLY_TOKENS", () => {
  test("once a user's month is spent, starting a run answers 429 saying when it resets; others are not affected", async () => {
    const carol = t.user("carol");
    const dave = t.user("dave");
    const id = await carol.project();
    const usage = async () => answer(await carol.api.usage.$get());
    const fresh = await usage();
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(fresh).toEqual({ month, usedTokens: 0, limitTokens: 1_000, resetsAt: next.toISOString() });

    model.enqueue(turn.steps({ text: "Within budget." }, { usage: { prompt_tokens: 700, completion_tokens: 100 } }));
    await run(carol, id);
    expect((await usage()).usedTokens).toBe(800);
    // 800 < 1,000: one more run may start, and it takes the month past the budget.
    model.enqueue(turn.steps({ text: "Over it now." }, { usage: { prompt_tokens: 700, completion_tokens: 100 } }));
    await run(carol, id, "Again");
    expect((await usage()).usedTokens).toBe(1_600);

    const requestsBefore = model.requests.length;
    const refused = await carol.request("POST", "/api/messages/stream", { projectId: id, content: "One more" });
    const monthName = now.toLocaleString("en", { month: "long", timeZone: "UTC" });
    const nextName = next.toLocaleString("en", { month: "long", timeZone: "UTC" });
    expect(await json(refused, 429)).toEqual({
      code: "budget_exhausted",
      error: `You have used your 1,000 tokens for ${monthName}. The budget resets on 1 ${nextName}.`,
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(model.requests.length).toBe(requestsBefore);
    // Nothing was saved for the refused message.
    expect((await json<Message[]>(await carol.request("GET", `/api/messages/${id}`))).length).toBe(4);

    // Deleting the project does not give the tokens back.
    await carol.request("DELETE", `/api/projects/${id}`);
    const again = await carol.project();
    expect((await carol.request("POST", "/api/messages/stream", { projectId: again, content: "Hi" })).status).toBe(429);

    const daves = await dave.project();
    model.enqueue(turn.text("Hello Dave."));
    expect((await dave.request("POST", "/api/messages/stream", { projectId: daves, content: "Hi" })).status).toBe(200);
  });
});
