/**
 * Small context windows with the defaults (issue 23, item 3): an 8,192-token model, its window read from the
 * endpoint, the production tools, system prompt, tokenizer and output limit, reads and edits a 30 kB file
 * without a single request over the window (the scripted server refuses any that is, as vLLM does).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { countTokens } from "../services/chat-runs/token-count";
import { fakePromptTokens, startFakeModelServer, turn, type FakeModelServer, type FakeTurn } from "../test/fake-model-server";
import { scriptedAgent } from "../test/scripted-agent";
import { DEFAULT_AGENT_LIMITS } from "./agent-limits";
import { systemPrompt } from "./prompts/system";
import { contextWindowOf, outputTokensFor } from "./run-model";
import { availableTools } from "./tools/registry";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const { run, client } = scriptedAgent(() => model);

const LINES = 600;
const TARGET = 590;
const big = `${Array.from({ length: LINES }, (_, i) =>
  i + 1 === TARGET ? 'export const greeting = "Hello";' : `export const value${i + 1} = "${"x".repeat(30)}"; // filler`,
).join("\n")}\n`;

async function productionRun(script: (messages: { role: string; content: unknown }[]) => FakeTurn) {
  const c = client();
  const contextTokens = await contextWindowOf({ client: c, name: "fake-model" }, { configured: false, fallback: DEFAULT_AGENT_LIMITS.contextTokens });
  const tools = availableTools({ search: { kind: "none" } });
  const files = { "src/big.ts": big };
  model.respondWith((body) => script(body.messages));
  return run({
    client: c,
    tools,
    countTokens,
    files,
    limits: { ...DEFAULT_AGENT_LIMITS, contextTokens, maxOutputTokens: outputTokensFor(contextTokens, DEFAULT_AGENT_LIMITS.maxOutputTokens) },
    messages: [
      {
        role: "system",
        content: systemPrompt({ name: "Big", description: null, workflowCommand: "npm run dev", files: [{ path: "src/big.ts", size: big.length }] }, tools),
      },
      { role: "user", content: 'In src/big.ts, change the greeting to "Hi".' },
    ],
  });
}

describe("an 8,192-token window with the defaults", () => {
  test("reads and edits a 30 kB file, each request within the window, the read paged by lines with a hint to read on", async () => {
    expect(big.length).toBeGreaterThan(30_000);
    model.mode({ contextWindow: 8_192 });
    const reads: string[] = [];
    const r = await productionRun((messages) => {
      const results = messages.filter((m) => m.role === "tool").map((m) => String(m.content));
      const last = results.at(-1);
      if (!last) return turn.toolCalls([{ name: "read_file", arguments: { path: "src/big.ts" } }]);
      if (last.includes("greeting")) {
        reads.push(last);
        return turn.toolCalls([{ name: "edit_file", arguments: { path: "src/big.ts", search: 'greeting = "Hello"', replace: 'greeting = "Hi"' } }]);
      }
      if (last.startsWith("Edited") || last.includes("Error")) return turn.text("Changed the greeting.");
      reads.push(last);
      // A model that reads the hint: where it stopped, and how many lines the file has; it goes to the end.
      expect(last).toMatch(/read on with startLine: \d+/);
      expect(last).toMatch(new RegExp(`of ${LINES}\\b`));
      return turn.toolCalls([{ name: "read_file", arguments: { path: "src/big.ts", startLine: TARGET - 5 } }]);
    });
    expect(r.errors).toEqual([]);
    expect(r.result.status).toBe("complete");
    expect(r.files.get("src/big.ts")).toBe(big.replace('greeting = "Hello"', 'greeting = "Hi"'));
    for (const q of model.requests) expect(fakePromptTokens(q.body) + Number(q.body.max_tokens)).toBeLessThanOrEqual(8_192);
    expect(model.requests[0]!.body.max_tokens).toBe(2_048);
    // No read was cut in the middle of a line: each ends with a whole numbered line or the hint.
    for (const read of reads) expect(read.split("\n").at(-1)).toMatch(/^\s*\d+\t|startLine: \d+\)?$/);
  });
});
