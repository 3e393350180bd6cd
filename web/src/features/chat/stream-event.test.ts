import { describe, expect, test } from "bun:test";
import { parseStreamEvent } from "./stream-event";

describe("parseStreamEvent", () => {
  test("reads each event type the stream sends", () => {
    expect(parseStreamEvent('{"type":"chunk","content":"hi"}')).toEqual({ type: "chunk", content: "hi" });
    expect(parseStreamEvent('{"type":"thinking","content":"hm"}')).toEqual({ type: "thinking", content: "hm" });
    expect(parseStreamEvent('{"type":"action","action":{"description":"Created a","status":"completed"}}')?.type).toBe("action");
    expect(parseStreamEvent('{"type":"actions_completed","actions":[]}')?.type).toBe("actions_completed");
    expect(parseStreamEvent('{"type":"tool_start","name":"write_file","summary":"a"}')?.type).toBe("tool_start");
    expect(parseStreamEvent('{"type":"tool_complete","name":"write_file","summary":"a","result":"ok"}')?.type).toBe("tool_complete");
    expect(parseStreamEvent('{"type":"error","message":"boom"}')).toEqual({ type: "error", message: "boom" });
    expect(parseStreamEvent('{"type":"done"}')).toEqual({ type: "done", messageId: undefined, status: undefined, usage: null });
    expect(parseStreamEvent('{"type":"done","status":"stopped","usage":{"promptTokens":1,"completionTokens":2,"totalTokens":3}}')).toEqual({
      type: "done",
      messageId: undefined,
      status: "stopped",
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    });
  });

  test("skips what it cannot read", () => {
    expect(parseStreamEvent("not json")).toBeNull();
    expect(parseStreamEvent("[DONE]")).toBeNull();
    expect(parseStreamEvent('{"type":"chunk"}')).toBeNull();
    expect(parseStreamEvent('{"type":"mystery"}')).toBeNull();
    expect(parseStreamEvent("null")).toBeNull();
  });

  test("a tool_complete without a result gets an empty one", () => {
    expect(parseStreamEvent('{"type":"tool_complete","name":"x","summary":"y"}')).toEqual({ type: "tool_complete", name: "x", summary: "y", result: "" });
  });

  test("a secret request needs its name and reason", () => {
    expect(parseStreamEvent('{"type":"secret_request","name":"API_KEY","reason":"why"}')).toEqual({ type: "secret_request", name: "API_KEY", reason: "why" });
    expect(parseStreamEvent('{"type":"secret_request","name":"API_KEY"}')).toBeNull();
  });

  test("queued carries a whole, non-negative place in line", () => {
    expect(parseStreamEvent('{"type":"queued","position":2}')).toEqual({ type: "queued", position: 2 });
    expect(parseStreamEvent('{"type":"queued","position":0}')).toEqual({ type: "queued", position: 0 });
    expect(parseStreamEvent('{"type":"queued","position":-1}')).toBeNull();
    expect(parseStreamEvent('{"type":"queued","position":"2"}')).toBeNull();
  });
});
