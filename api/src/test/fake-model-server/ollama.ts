/**
 * The `ollama` mode: Ollama's own endpoints beside its OpenAI-compatible ones: `GET /api/version`,
 * `POST /api/show` (the trained window in `model_info`; `numCtx` as a Modelfile's `num_ctx` in `parameters`)
 * and `GET /api/ps` (the model loaded with `running` as its `context_length`, or nothing loaded).
 */
import type { FakeServerMode } from "./types";

/** The JSON Ollama answers the request with, or null when it is not one of Ollama's own routes. */
export function answerOllama(ollama: NonNullable<FakeServerMode["ollama"]>, method: string | undefined, pathname: string): unknown {
  if (method === "GET" && pathname === "/api/version") return { version: "0.12.0" };
  if (method === "POST" && pathname === "/api/show") {
    const parameters = ollama.numCtx
      ? `num_ctx                        ${ollama.numCtx}\nstop                           "<|im_end|>"`
      : `stop                           "<|im_end|>"`;
    return {
      parameters,
      details: { family: "qwen2" },
      model_info: { "general.architecture": "qwen2", "qwen2.context_length": ollama.contextLength },
    };
  }
  if (method === "GET" && pathname === "/api/ps") {
    const loaded = ollama.running
      ? [{ name: "fake-model:latest", model: "fake-model:latest", size: 1, details: { family: "qwen2" }, size_vram: 0, context_length: ollama.running }]
      : [];
    return { models: loaded };
  }
  return null;
}
