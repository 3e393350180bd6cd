import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { describeWait } from "./model";
import { classifyModelError, isOpenAiReasoningModel, toOpenAiMessages, toOpenAiTools } from "./model-client";

const apiError = (status: number | undefined, body: object, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status as number, body, undefined, new Headers(headers));

describe("model client", () => {
  test("OpenAI reasoning families are recognised by name; other models are not", () => {
    for (const m of ["o1", "o1-mini", "o3", "o3-mini-2025-01-31", "o4-mini", "gpt-5", "gpt-5-mini", "openai/o3"]) expect(isOpenAiReasoningModel(m)).toBe(true);
    for (const m of ["gpt-4o-mini", "llama3.1:8b", "qwen2.5-coder", "deepseek-r1:14b", "o1x"]) expect(isOpenAiReasoningModel(m)).toBe(false);
  });

  test("failures read as a person would want: rate limits with their wait, auth and model hints, retryable or not", () => {
    const limited = classifyModelError(apiError(429, { error: { message: "slow down" } }, { "retry-after": "12" }));
    expect(limited).toMatchObject({ kind: "rate_limited", retryable: true, retryAfterMs: 12_000 });
    const date = new Date(Date.now() + 30_000).toUTCString();
    expect(classifyModelError(apiError(429, { error: { message: "x" } }, { "retry-after": date })).retryAfterMs).toBeGreaterThan(25_000);
    expect(classifyModelError(apiError(429, { error: { message: "x" } }, { "retry-after-ms": "250" })).retryAfterMs).toBe(250);
    expect(classifyModelError(apiError(401, { error: { message: "bad key" } })).message).toContain("Check OPENAI_API_KEY");
    expect(classifyModelError(apiError(404, { error: { message: "model 'x' not found" } })).message).toContain("Check OPENAI_MODEL and OPENAI_BASE_URL");
    expect(classifyModelError(apiError(400, { error: { message: "This model's maximum context length is 8192 tokens" } })).kind).toBe("context_length");
    expect(classifyModelError(apiError(503, { error: { message: "overloaded" } })).retryable).toBe(true);
    expect(classifyModelError(apiError(400, { error: { message: "bad" } })).retryable).toBe(false);
    expect(classifyModelError(new TypeError("ECONNRESET"))).toMatchObject({ kind: "connection", retryable: true });
  });

  test("waits are described in seconds, or minutes when long", () => {
    expect(describeWait(400)).toBe("1 s");
    expect(describeWait(20_000)).toBe("20 s");
    expect(describeWait(3_600_000)).toBe("60 min");
  });

  test("the agent's messages and tool specs become OpenAI's wire format; reasoning goes back only with a tool-call turn, when asked for", () => {
    expect<unknown>(
      toOpenAiMessages(
        [
          { role: "system", content: "sys" },
          { role: "user", content: "plain" },
          { role: "user", content: "look", images: [{ mime: "image/png", base64: "iVBO" }] },
          { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a"}' }], reasoning: "thought" },
          { role: "tool", toolCallId: "c1", content: "file text" },
          { role: "assistant", content: "Done.", reasoning: "thought" },
        ],
        { reasoning: true },
      ),
    ).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "plain" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } }],
        reasoning_content: "thought",
      },
      { role: "tool", tool_call_id: "c1", content: "file text" },
      { role: "assistant", content: "Done." },
    ]);
    const turn = { role: "assistant" as const, content: "", toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }], reasoning: "thought" };
    expect(toOpenAiMessages([turn])[0]).not.toHaveProperty("reasoning_content");
    const parameters = { type: "object", properties: { path: { type: "string" } } };
    expect(toOpenAiTools([{ name: "read_file", description: "Read", parameters }])).toEqual([
      { type: "function", function: { name: "read_file", description: "Read", parameters } },
    ]);
  });
});
