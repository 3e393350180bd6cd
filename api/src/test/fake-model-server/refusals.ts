/**
 * The modes in which a real server refuses a request with a 400: tools on a server without tool support,
 * `reasoning_effort` on an older Ollama, a missing `reasoning_content` (DeepSeek), a prompt past the window.
 */
import { fakePromptTokens } from "./context-window";
import type { ChatRequestBody, FakeServerMode } from "./types";

/** The 400 body a real server sends for a request it refuses in the given mode, or null. */
export function refuse(body: ChatRequestBody, mode: FakeServerMode): unknown {
  if (mode.refusesTools === "ollama" && body.tools?.length) {
    return { error: { message: `registry.ollama.ai/library/${body.model} does not support tools`, type: "api_error", param: null, code: null } };
  }
  if (mode.refusesTools === "vllm" && body.tools?.length) {
    return {
      object: "error",
      message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      type: "BadRequestError",
      param: null,
      code: 400,
    };
  }
  if (mode.ollama?.noReasoningEffort && body.reasoning_effort !== undefined) {
    return { error: { message: `invalid reasoning value: '${body.reasoning_effort}'`, type: "invalid_request_error" } };
  }
  if (mode.requireReasoningContent) {
    const missing = body.messages.findIndex((m) => m.role === "assistant" && m.tool_calls?.length && typeof m.reasoning_content !== "string");
    if (missing !== -1) {
      return {
        error: {
          message: `Missing \`reasoning_content\` field in the assistant message at message index ${missing}.`,
          type: "invalid_request_error",
          code: "invalid_request_error",
        },
      };
    }
  }
  if (mode.contextWindow) {
    const prompt = fakePromptTokens(body);
    const asked = typeof body.max_tokens === "number" ? body.max_tokens : 0;
    if (prompt + asked > mode.contextWindow) {
      return {
        error: {
          message: `This model's maximum context length is ${mode.contextWindow} tokens. However, you requested ${prompt + asked} tokens (${prompt} in the messages, ${asked} in the completion). Please reduce the length of the messages or completion.`,
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      };
    }
  }
  return null;
}
