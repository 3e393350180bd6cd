import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { lastUserText, startFakeModelServer, turn, type FakeModelServer } from "./fake-model-server";

let model: FakeModelServer;
let client: OpenAI;
beforeAll(async () => {
  model = await startFakeModelServer();
  client = new OpenAI({ baseURL: model.baseUrl, apiKey: "test", maxRetries: 0 });
});
afterAll(() => model.close());

const ask = () => client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
const askWhole = () => client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });

describe("fake model server (through the real openai SDK)", () => {
  test("streams text, reasoning (both field names) and usage, then [DONE]; records the request", async () => {
    model.reset();
    model.enqueue(
      turn.steps(
        { reasoning: "think", field: "reasoning" },
        { reasoning: "more" },
        { text: "Hello world" },
        { usage: { prompt_tokens: 3, completion_tokens: 2 } },
      ),
    );
    const deltas: Record<string, unknown>[] = [];
    let usage: unknown;
    for await (const chunk of await ask()) {
      if (chunk.usage) usage = chunk.usage;
      if (chunk.choices[0]) deltas.push(chunk.choices[0].delta as Record<string, unknown>);
    }
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("Hello world");
    expect(deltas.map((d) => d.reasoning ?? "").join("")).toBe("think");
    expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe("more");
    expect(usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    expect(model.requests[0]!.body.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  test("tool calls arrive as OpenAI sends them: id and name first, arguments in fragments, by index", async () => {
    model.reset();
    model.enqueue(
      turn.toolCalls([
        { name: "a", arguments: { path: "x.txt", content: "long enough to split" } },
        { name: "b", arguments: "{bad" },
      ]),
    );
    const calls: { index: number; id?: string; name?: string; args: string[] }[] = [];
    let finish: string | null = null;
    for await (const chunk of await ask()) {
      for (const part of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[part.index] ??= { index: part.index, args: [] };
        if (part.id) calls[part.index]!.id = part.id;
        if (part.function?.name) calls[part.index]!.name = part.function.name;
        if (part.function?.arguments) calls[part.index]!.args.push(part.function.arguments);
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe("tool_calls");
    expect(calls.map((c) => c.name)).toEqual(["a", "b"]);
    expect(calls[0]!.args.length).toBeGreaterThan(3);
    expect(JSON.parse(calls[0]!.args.join(""))).toEqual({ path: "x.txt", content: "long enough to split" });
    expect(calls[1]!.args.join("")).toBe("{bad");
    expect(calls[0]!.id).toMatch(/^call_/);
  });

  test("non-streaming replies carry the whole message", async () => {
    model.reset();
    model.enqueue(turn.toolCalls([{ name: "a", arguments: { x: 1 } }], "Let me"));
    const reply = await askWhole();
    expect(reply.choices[0]!.message.content).toBe("Let me");
    expect(reply.choices[0]!.message.tool_calls?.[0]).toMatchObject({ type: "function", function: { name: "a", arguments: '{"x":1}' } });
    expect(model.requests[0]!.body.stream).toBeUndefined();
  });

  test("HTTP errors (with retry-after), mid-stream error payloads and cuts reach the SDK as failures", async () => {
    model.reset();
    model.enqueue(
      turn.rateLimited(7),
      turn.http(500),
      turn.steps({ text: "par" }, { streamError: { message: "overloaded" } }),
      turn.steps({ text: "partial" }, { cut: true }),
    );
    const e429 = await ask().catch((e) => e);
    expect(e429).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e429.headers.get("retry-after")).toBe("7");
    expect(await ask().catch((e) => e)).toBeInstanceOf(OpenAI.InternalServerError);

    const read = async () => {
      let text = "";
      try {
        for await (const chunk of await ask()) text += chunk.choices[0]?.delta.content ?? "";
        return { text, error: null };
      } catch (error) {
        return { text, error };
      }
    };
    const midError = await read();
    expect(midError.text).toBe("par");
    expect((midError.error as Error).message).toContain("overloaded");
    const cut = await read();
    expect(cut.text).toBe("partial");
    expect(cut.error).toBeTruthy();
  });

  test("respondWith scripts replies from the request when the queue is empty", async () => {
    model.reset();
    model.respondWith((body, index) => turn.text(`echo ${index}: ${String(body.messages.at(-1)?.content)}`));
    const reply = await askWhole();
    expect(reply.choices[0]!.message.content).toBe("echo 0: hi");
    model.respondWith(null);
    expect(await askWhole().catch((e) => e.status)).toBe(500);
  });

  test("modes: a tool-call turn without reasoning_content is refused (400); a prompt past the window gets the context-length error", async () => {
    model.reset();
    model.mode({ requireReasoningContent: true });
    const toolTurn = {
      role: "assistant" as const,
      content: null,
      tool_calls: [{ id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } }],
    };
    const history = [{ role: "user" as const, content: "hi" }, toolTurn, { role: "tool" as const, tool_call_id: "c1", content: "ok" }];
    const refused = await client.chat.completions.create({ model: "m", messages: history }).catch((e) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String(refused.message)).toContain("reasoning_content");
    model.enqueue(turn.text("fine"));
    const withReasoning = [history[0]!, { ...toolTurn, reasoning_content: "why" }, history[2]!] as typeof history;
    const accepted = await client.chat.completions.create({ model: "m", messages: withReasoning });
    expect(accepted.choices[0]!.message.content).toBe("fine");

    model.reset();
    model.mode({ contextWindow: 1_000 });
    const long = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x".repeat(4_000) }] }).catch((e) => e);
    expect(long).toBeInstanceOf(OpenAI.BadRequestError);
    expect(long.error).toMatchObject({ code: "context_length_exceeded", message: expect.stringContaining("maximum context length is 1000 tokens") });
    const models = (await (await fetch(`${model.baseUrl}/models`)).json()) as { data: { context_length?: number }[] };
    expect(models.data[0]!.context_length).toBe(1_000);
    model.reset();
  });

  test("lastUserText reads the last user message of a request, sent as a string or as parts", async () => {
    model.reset();
    model.enqueue(turn.text("one"), turn.text("two"));
    await client.chat.completions.create({
      model: "m",
      messages: [
        { role: "user", content: "first" },
        { role: "assistant", content: "ok" },
        { role: "user", content: "second" },
      ],
    });
    const parts = [
      { type: "text" as const, text: "look at " },
      { type: "image_url" as const, image_url: { url: "data:image/png;base64,AA==" } },
      { type: "text" as const, text: "this" },
    ];
    await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: parts }] });
    expect(lastUserText(model)).toBe("look at this");
    expect(lastUserText(model, 0)).toBe("second");
    model.reset();
    expect(() => lastUserText(model)).toThrow("no user message");
  });
});
