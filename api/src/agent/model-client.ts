/**
 * The model endpoint: an `openai` SDK client for any OpenAI-compatible server (OpenAI, Ollama, vLLM,
 * LM Studio…), and how its failures read to a person. The SDK's own retries are off: the loop retries
 * itself so it can honour `retry-after`, report the wait, and never repeat text already streamed.
 */
import OpenAI from "openai";
import type { Config } from "../lib/config";

export type ModelConfig = Extract<Config["model"], { configured: true }>;

export const MODEL_NOT_CONFIGURED =
  "No AI model is configured on this server. Set OPENAI_API_KEY (for OpenAI), or OPENAI_BASE_URL (for Ollama, vLLM, " +
  "LM Studio or any OpenAI-compatible server), and OPENAI_MODEL, then restart the server.";

export function createModelClient(model: ModelConfig): OpenAI {
  return new OpenAI({
    apiKey: model.apiKey,
    baseURL: model.baseUrl,
    maxRetries: 0,
    // Time to the response headers; a silent stream is caught by the loop's idle time-out.
    timeout: 5 * 60_000,
  });
}

/** OpenAI's reasoning families (o1, o3, o4, gpt-5): they take `reasoning_effort`, and nothing else does. */
export function isOpenAiReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split("/").pop() ?? "";
  return /^(o1|o3|o4)(-|$)/.test(name) || /^gpt-5/.test(name);
}

export type ModelFailure = {
  kind: "rate_limited" | "server" | "connection" | "timeout" | "client" | "context_length";
  message: string;
  /** Worth another try (before anything was streamed)? */
  retryable: boolean;
  /** From retry-after / retry-after-ms, when the server said. */
  retryAfterMs?: number;
  status?: number;
};

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms"));
  if (headers?.get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

const isRateLimitCode = (v: unknown) => v === 429 || v === "429" || (typeof v === "string" && /rate.?limit/i.test(v));

export function classifyModelError(error: unknown): ModelFailure {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return { kind: "timeout", message: "The model did not answer in time.", retryable: true };
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const body = error.error as { code?: unknown; type?: unknown; message?: unknown } | undefined;
    const detail = (typeof body?.message === "string" && body.message) || error.message;
    if (status === 429 || isRateLimitCode(error.code) || isRateLimitCode(body?.code) || isRateLimitCode(body?.type)) {
      return { kind: "rate_limited", message: `The model is rate limited: ${detail}`, retryable: true, retryAfterMs: retryAfterMs(error.headers), status: 429 };
    }
    if (status === undefined && error instanceof OpenAI.APIConnectionError) {
      return { kind: "connection", message: `Could not reach the model endpoint (${error.cause instanceof Error ? error.cause.message : error.message}).`, retryable: true };
    }
    if (status === undefined) {
      // An error payload inside the stream.
      return { kind: "server", message: `The model reported an error: ${detail}`, retryable: true };
    }
    if (status === 400 && /context|maximum.*tokens|too long|too many tokens/i.test(detail)) {
      return { kind: "context_length", message: `The conversation is too long for the model: ${detail}`, retryable: false, status };
    }
    if (status === 401 || status === 403) {
      return { kind: "client", message: `The model endpoint refused the request (HTTP ${status}): ${detail}. Check OPENAI_API_KEY.`, retryable: false, status };
    }
    if (status === 404) {
      return { kind: "client", message: `The model endpoint answered HTTP 404: ${detail}. Check OPENAI_MODEL and OPENAI_BASE_URL.`, retryable: false, status };
    }
    if (status >= 500 || status === 408 || status === 409) {
      return { kind: "server", message: `The model endpoint failed (HTTP ${status}): ${detail}`, retryable: true, status };
    }
    return { kind: "client", message: `The model endpoint rejected the request (HTTP ${status}): ${detail}`, retryable: false, status };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "connection", message: `The connection to the model was lost (${message}).`, retryable: true };
}

export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}
