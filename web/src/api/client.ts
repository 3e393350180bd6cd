/**
 * The one way the SPA calls its API: bearer token when signed in, cookies included, JSON in and out.
 * A non-OK answer throws ApiError.
 *
 * Only api/endpoints.ts calls it: that module knows the paths and parses each answer.
 *
 * @example
 * const res = await apiRequest(apiPath("projects"), { method: "POST", body: { name } });
 */
import { ApiError } from "./api-error";
import { getAuthToken } from "./auth-token";

export type ApiInit = Omit<RequestInit, "body"> & {
  /** Sent as JSON, except FormData, which goes as multipart. */
  body?: unknown;
};

/** Sends the request and returns the OK response unread (for streams); throws ApiError otherwise. */
export async function apiRequest(path: string, init: ApiInit = {}): Promise<Response> {
  const { body, headers: extra, ...rest } = init;
  const headers = new Headers(extra);
  const token = await getAuthToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers.set("Content-Type", "application/json");
    payload = JSON.stringify(body);
  }
  if (!headers.has("Accept")) headers.set("Accept", "application/json");

  const res = await fetch(path, { ...rest, headers, body: payload, credentials: "include" });
  if (!res.ok) throw await ApiError.fromResponse(res);
  return res;
}
