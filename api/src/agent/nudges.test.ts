/**
 * A model that does nothing gets one nudge (issue 23, item 5), and a model that goes round in circles is
 * nudged before it is stopped as stuck (item 7): played by the scripted model server through the real
 * `openai` SDK.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { lastUserText, startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { scriptedAgent } from "../test/scripted-agent";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const { run, toolResults } = scriptedAgent(() => model);
const ask = (content: string) => [
  { role: "system" as const, content: "You are a test." },
  { role: "user" as const, content },
];
const write = turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: "export default 1;\n" } }]);
const codeAnswer = `Here is the component:\n\n\`\`\`tsx\n${Array.from({ length: 12 }, (_, i) => `const line${i} = ${i};`).join("\n")}\n\`\`\`\n`;

describe("a model that does nothing gets one nudge", () => {
  const idle: [string, string][] = [
    ["announces work without calling a tool", "I'll create the todo list component now."],
    ["writes the code into its answer", codeAnswer],
    ["sends an empty answer", ""],
  ];
  for (const [what, reply] of idle) {
    test(`during a build request, a model that ${what} is nudged once and then does the work`, async () => {
      model.enqueue(turn.text(reply), write, turn.text("Done."));
      const r = await run({ messages: ask("Build a todo list app") });
      expect(r.result.status).toBe("complete");
      expect(r.files.get("src/App.tsx")).toBe("export default 1;\n");
      expect(model.requests).toHaveLength(3);
      expect(lastUserText(model, 1)).toMatch(/tool|write_file/i);
    });
  }

  test("the nudge comes once: a second announcement ends the run with its text", async () => {
    model.enqueue(turn.text("Let me build it."), turn.text("I will now write the files."));
    const r = await run({ messages: ask("Build a todo list app") });
    expect(r.result.status).toBe("complete");
    expect(model.requests).toHaveLength(2);
    expect(r.text).toContain("I will now write the files.");
  });

  test("an empty answer after the nudge fails saying so, never completes empty", async () => {
    model.enqueue(turn.text(""), turn.text(""));
    const r = await run({ messages: ask("Build a todo list app") });
    expect(r.result.status).toBe("failed");
    expect(r.errors[0]).toContain("empty");
    expect(model.requests).toHaveLength(2);
  });

  const questions = ["What does useEffect do?", "How do I center a div", "Can you explain how the router works?", "why is my build slow?"];
  for (const question of questions) {
    test(`a plain question answered in text is never nudged, code and "let me" included: ${question}`, async () => {
      model.enqueue(turn.text(`Let me explain.\n\n${codeAnswer}`));
      const r = await run({ messages: ask(question) });
      expect(r.result.status).toBe("complete");
      expect(model.requests).toHaveLength(1);
    });
  }

  test("a build request phrased as a question is a build request", async () => {
    model.enqueue(turn.text("I'll add dark mode."), write, turn.text("Done."));
    await run({ messages: ask("Can you add a dark mode toggle?") });
    expect(model.requests).toHaveLength(3);
  });

  test("an answer that reports finished work is not nudged", async () => {
    model.enqueue(write, turn.text("I created the app. Next, you can add more todos."));
    const r = await run({ messages: ask("Build a todo list app") });
    expect(r.result.status).toBe("complete");
    expect(model.requests).toHaveLength(2);
  });
});

describe("loops get a nudge first, and stop as stuck only if they go on", () => {
  const read = (path: string) => turn.toolCalls([{ name: "read_file", arguments: { path } }]);
  const files = { "a.ts": "const a = 1;\n", "b.ts": "const b = 2;\n" };

  test("four identical successful calls get a nudge in the fourth result; the model moves on and the run completes", async () => {
    model.enqueue(read("a.ts"), read("a.ts"), read("a.ts"), read("a.ts"), write, turn.text("Done."));
    const r = await run({ files });
    expect(r.result.status).toBe("complete");
    const results = toolResults();
    expect(results.slice(0, 3).some((t) => /same/i.test(t) && /times/i.test(t))).toBe(false);
    expect(results[3]).toMatch(/4 times/);
    expect(r.files.get("src/App.tsx")).toBe("export default 1;\n");
  });

  test("the same call going on after the nudge stops the run as stuck, naming it", async () => {
    model.respondWith(() => read("a.ts"));
    const r = await run({ files });
    expect(r.result.status).toBe("failed");
    expect(r.errors[0]).toMatch(/^The agent was stuck/);
    expect(r.errors[0]).toContain("read_file");
    expect(model.requests).toHaveLength(6);
  });

  test("an A-B-A-B alternation gets a nudge, and stops as stuck if it goes on", async () => {
    model.enqueue(read("a.ts"), read("b.ts"), read("a.ts"), read("b.ts"), write, turn.text("Done."));
    const ok = await run({ files });
    expect(ok.result.status).toBe("complete");
    expect(toolResults()[3]).toMatch(/alternat/i);

    model.reset();
    let i = 0;
    model.respondWith(() => read(i++ % 2 ? "b.ts" : "a.ts"));
    const stuck = await run({ files });
    expect(stuck.result.status).toBe("failed");
    expect(stuck.errors[0]).toMatch(/^The agent was stuck/);
    expect(model.requests).toHaveLength(6);
  });

  test("reading a file again after changing it is no loop", async () => {
    const edit = (n: number) => turn.toolCalls([{ name: "write_file", arguments: { path: "a.ts", content: `const a = ${n};\n` } }]);
    model.enqueue(read("a.ts"), edit(2), read("a.ts"), edit(3), read("a.ts"), turn.text("Done."));
    const r = await run({ files });
    expect(r.result.status).toBe("complete");
    expect(toolResults().some((t) => /alternat|times/i.test(t))).toBe(false);
  });
});
