/**
 * What a run costs in tokens (issue 23, item 8), through the scripted model server and the real `openai`
 * SDK: stale file contents are stubbed in the history at once, trimming goes in batches so the prompt's
 * prefix stays the same for a while, and reasoning goes back only to a server that requires it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { scriptedAgent } from "../test/scripted-agent";
import type { ChatMessage } from "./chat-message";
import { stubStaleContents } from "./stale-content";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const { run } = scriptedAgent(() => model);
const body = (tag: string) => `export const ${tag} = [\n${Array.from({ length: 40 }, (_, i) => `  "${tag} line ${i}",`).join("\n")}\n];\n`;
const call = (name: string, args: Record<string, unknown>) => turn.toolCalls([{ name, arguments: args }]);

describe("stale file contents", () => {
  test("a file read again, or rewritten, has its earlier reads and writes stubbed in the very next request", async () => {
    model.enqueue(
      call("read_file", { path: "a.ts" }),
      call("write_file", { path: "a.ts", content: body("second") }),
      call("read_file", { path: "a.ts" }),
      call("read_file", { path: "b.ts" }),
      turn.text("Done."),
    );
    await run({ files: { "a.ts": body("first"), "b.ts": body("other") } });
    // Request 3 follows the rewrite: the first read of a.ts is stubbed, the write is the newest content.
    const third = JSON.stringify(model.requests[2]!.body.messages);
    expect(third).not.toContain("first line 3");
    expect(third).toContain("second line 3");
    // Request 4 follows the second read: the write's content is stubbed, the read is the newest.
    const fourth = model.requests[3]!.body.messages;
    const write = fourth.find((m) => m.role === "assistant" && JSON.stringify(m.tool_calls).includes("write_file"))!;
    expect(JSON.stringify(write.tool_calls)).not.toContain("second line 3");
    expect(JSON.stringify(write.tool_calls)).toContain("omitted to save space");
    const reads = fourth.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(reads[0]).toContain("read again later");
    expect(reads[2]).toContain("second line 3");
    // Another file's read is untouched.
    expect(String(model.requests[4]!.body.messages.filter((m) => m.role === "tool").at(-1)!.content)).toContain("other line 3");
  });

  test("a file rewritten after create_boilerplate showed it has its copy in that result stubbed; the other files stay", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: "", toolCalls: [{ id: "t", name: "create_boilerplate", arguments: '{"template":"react"}' }] },
      {
        role: "tool",
        toolCallId: "t",
        content: "Created.\n\n--- src/App.tsx ---\nold app\n\n--- src/main.tsx ---\nmain\n\nAlso written (read_file shows them): x.png.",
      },
      { role: "assistant", content: "", toolCalls: [{ id: "w", name: "write_file", arguments: '{"path":"src/App.tsx","content":"new app"}' }] },
      { role: "tool", toolCallId: "w", content: "Updated src/App.tsx." },
    ];
    expect(stubStaleContents(messages)).toBe(1);
    expect(messages[3]!.content).toBe(
      "Created.\n\n--- src/App.tsx ---\n[left out to save space: read again later, or rewritten]\n\n--- src/main.tsx ---\nmain\n\nAlso written (read_file shows them): x.png.",
    );
    expect(stubStaleContents(messages)).toBe(0);
  });

  test("a read of part of a file does not stub the whole read before it", async () => {
    model.enqueue(call("read_file", { path: "a.ts" }), call("read_file", { path: "a.ts", startLine: 2, endLine: 3 }), turn.text("Done."));
    await run({ files: { "a.ts": body("first") } });
    expect(JSON.stringify(model.requests[2]!.body.messages)).toContain("first line 30");
  });
});

describe("trimming in batches", () => {
  test("when the conversation must be trimmed it is trimmed well below the room, so the next requests keep its prefix", async () => {
    const n = 20;
    const big = (tag: string) => body(tag).repeat(3);
    model.enqueue(...Array.from({ length: n }, (_, i) => call("read_file", { path: `f${i}.ts` })), turn.text("Done."));
    const files = Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}.ts`, big(`file${i}`)]));
    const r = await run({ files, limits: { contextTokens: 7_000, maxOutputTokens: 1_000 } });
    expect(r.result.status).toBe("complete");
    // A request that only adds to the one before keeps its prefix (cacheable); count those that changed it.
    let trims = 0;
    for (let i = 1; i < model.requests.length; i++) {
      const before = JSON.stringify(model.requests[i - 1]!.body.messages).slice(0, -1);
      if (!JSON.stringify(model.requests[i]!.body.messages).startsWith(before)) trims++;
    }
    expect(trims).toBeGreaterThan(0);
    expect(trims).toBeLessThanOrEqual(4);
  });
});

describe("reasoning sent back", () => {
  const reasoned = () =>
    turn.steps({ reasoning: "I should write the file." }, { toolCalls: [{ name: "write_file", arguments: { path: "r.txt", content: "x" } }] });

  test("a server that does not require reasoning_content is not sent it", async () => {
    model.enqueue(reasoned(), turn.text("Written."));
    await run({ enableReasoning: true });
    expect(model.requests[1]!.body.messages.find((m) => m.role === "assistant")).not.toHaveProperty("reasoning_content");
  });

  test("a server that requires it (DeepSeek's 400) gets it from then on", async () => {
    model.mode({ requireReasoningContent: true });
    model.enqueue(reasoned(), turn.text("Written."));
    const r = await run({ enableReasoning: true });
    expect(r.result.status).toBe("complete");
    expect(model.requests.at(-1)!.body.messages.find((m) => m.role === "assistant")).toMatchObject({ reasoning_content: "I should write the file." });
  });
});
