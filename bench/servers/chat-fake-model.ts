/**
 * Bench subprocess: the scripted OpenAI-compatible model for `bench/chat-stream.ts`. Each text chunk it
 * sends is a stamp `⟨ms⟩` of the moment it was written (performance.timeOrigin + now, comparable across
 * processes on one machine), so the client can tell how long the chunk took to reach it.
 * The user message picks the script:
 * - `latency <tokens> <intervalMs>`: that many stamped chunks, one per interval;
 * - `work <tokens>`: a write_file call first, then (after the tool result) an answer of that many chunks.
 * Prints one JSON line `{"baseUrl": "…"}` when listening.
 */
import { startFakeModelServer, turn, type FakeStep } from "../../api/src/test/fake-model-server";

export const stamp = () => `⟨${(performance.timeOrigin + performance.now()).toFixed(3)}⟩`;

function stamped(tokens: number, intervalMs: number): FakeStep[] {
  const steps: FakeStep[] = [];
  for (let i = 0; i < tokens; i++) {
    steps.push({ text: stamp, chunkSize: 1_000 });
    if (intervalMs > 0) steps.push({ delayMs: intervalMs });
  }
  return steps;
}

const model = await startFakeModelServer();
model.respondWith((body) => {
  const last = body.messages.at(-1);
  const user = [...body.messages].reverse().find((m) => m.role === "user");
  const [kind, a = "100", b = "0"] = String(typeof user?.content === "string" ? user.content : "").split(" ");
  const usage: FakeStep = { usage: { prompt_tokens: 1_000, completion_tokens: Number(a) } };
  if (kind === "latency") return turn.steps(...stamped(Number(a), Number(b)), usage);
  if (last?.role === "tool") return turn.steps(...stamped(Number(a), 1), usage);
  return turn.steps(
    { text: "Writing the file." },
    { toolCalls: [{ name: "write_file", arguments: { path: "src/index.html", content: "<h1>Bench</h1>\n".repeat(20) } }] },
    usage,
  );
});
console.log(JSON.stringify({ baseUrl: model.baseUrl }));
process.on("SIGTERM", async () => {
  await model.close();
  process.exit(0);
});
