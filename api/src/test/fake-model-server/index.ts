/**
 * An OpenAI-compatible chat-completions server for tests and benchmarks: a real HTTP server (node:http on
 * an ephemeral port) that the real `openai` SDK talks to. It plays scripted replies, one turn per request,
 * and records every request body so tests can assert what the agent sent (image parts, trimmed history).
 * The server core is ./server.ts; each real-server behaviour (FakeServerMode) has its file: ./ollama.ts,
 * ./refusals.ts, ./context-window.ts, and the streamed (./streamed.ts) or whole (./whole.ts) reply.
 *
 * @example
 * const model = await startFakeModelServer();
 * model.enqueue(
 *   turn.toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: "hi" } }]),
 *   turn.text("Done."),
 * );
 * // OPENAI_BASE_URL = model.baseUrl
 */
export { fakePromptTokens } from "./context-window";
export { startFakeModelServer } from "./server";
export { lastUserText, turn } from "./turns";
export type { ChatRequestBody, FakeModelServer, FakeServerMode, FakeStep, FakeToolCall, FakeTurn, RecordedRequest } from "./types";
