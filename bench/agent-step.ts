/**
 * The agent's own overhead per step: with a scripted model that answers at once, the server time between
 * the model's last chunk of a tool-call reply and the agent's next request (assembling the turn, the text
 * and think filters, running an in-memory write_file, counting tokens with the real tokenizer, fitting the
 * context, building the next request). Prints p50/p99 over a long run; the goal is p99 < 50 ms.
 *
 *   bun bench/agent-step.ts [steps=200]
 */
import { DEFAULT_AGENT_LIMITS, runAgent } from "../api/src/agent/loop";
import { createModelClient } from "../api/src/agent/model-client";
import type { RunToolContext, Tool } from "../api/src/agent/tools/define-tool";
import { allTools } from "../api/src/agent/tools/registry";
import { countTokens } from "../api/src/services/chat-runs/token-count";
import { memoryWorkspace } from "../api/src/test/memory-workspace";
import { fakePromptTokens, startFakeModelServer, turn } from "../api/src/test/fake-model-server";
import { atFraction, ms } from "./support/stats";

const steps = Number(process.argv[2] ?? 200);
const model = await startFakeModelServer();
let lastChunkAt = 0;
const gaps: number[] = [];
model.respondWith((body, index) => {
  if (lastChunkAt) gaps.push(performance.now() - lastChunkAt);
  if (process.env.BENCH_TRACE && gaps.at(-1)! > 30)
    console.log("slow", index, gaps.at(-1)!.toFixed(1), body.tools?.length ? "step" : "summary", body.messages.length);
  if (index >= steps) return turn.text("Done.");
  // A realistic step: a sentence, then a write_file of a ~2 KB component split across chunks.
  const content = `export function Part${index}() {\n${'  return <div className="p-4">Hello</div>;\n'.repeat(45)}}\n`;
  return turn.steps(
    { text: `Now writing part ${index}. ` },
    { toolCalls: [{ name: "write_file", arguments: { path: `src/part${index}.tsx`, content }, chunkSize: 40 }] },
    { usage: { prompt_tokens: fakePromptTokens(body), completion_tokens: 600 } },
    // Stamped as the last chunk is written; the finish chunk follows immediately.
    {
      text: () => {
        lastChunkAt = performance.now();
        return "";
      },
    },
  );
});

const workspace = memoryWorkspace();
const started = performance.now();
const result = await runAgent({
  client: createModelClient({ baseUrl: model.baseUrl, apiKey: "bench" }),
  model: "fake-model",
  messages: [
    { role: "system", content: "You are a bench." },
    { role: "user", content: "Build many parts." },
  ],
  tools: allTools as Tool[],
  toolContext: { ...workspace, search: { kind: "none" }, fetch } as RunToolContext,
  enableReasoning: false,
  signal: new AbortController().signal,
  // Summaries are answered by the same script (a tool call in reply is fine: only the text is kept).
  limits: { ...DEFAULT_AGENT_LIMITS, maxSteps: steps + 5, maxRunTokens: Number.MAX_SAFE_INTEGER },
  countTokens,
  emit: () => {},
});
const total = performance.now() - started;
await model.close();

gaps.sort((a, b) => a - b);
const at = (q: number) => atFraction(gaps, q);
console.log(
  `agent step overhead over ${gaps.length} steps (${result.status}${result.error ? `: ${result.error}` : ""}, ${workspace.fileMap.size} files, ${(total / 1000).toFixed(1)} s in all)`,
);
console.log(`  p50 ${ms(at(0.5))}   p99 ${ms(at(0.99))}   max ${ms(gaps.at(-1)!)}   (goal: p99 < 50 ms)`);
