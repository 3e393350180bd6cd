/** The one error body every API failure answers with. */
import { z } from "zod";

export const errorCodes = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "budget_exhausted",
  "dependency_unavailable",
  /** 503: this instance got SIGTERM and starts nothing new; the same request to another one (or soon) works. */
  "shutting_down",
  "internal",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({ error: z.string(), code: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
