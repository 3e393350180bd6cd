/**
 * The one way the SPA's requests leave it: bearer token when signed in, cookies included, JSON asked for
 * unless the call says otherwise. A non-OK answer throws ApiError.
 *
 * Only api/endpoints.ts uses it, as the `fetch` of its typed client (`hc<ApiRoutes>`), which builds the
 * path, the query and the body (JSON, or FormData sent as multipart) from the server's own route types.
 *
 * @example
 * const client = hc<ApiRoutes>("/api", { fetch: apiFetch });
 */
import { ApiError } from "./api-error";
import { getAuthToken } from "./auth-token";

/** A `fetch` that adds the session and returns the OK response unread (for streams); throws ApiError otherwise. */
export async function apiFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = await getAuthToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (!headers.has("Accept")) headers.set("Accept", "application/json");

  const res = await fetch(input, { ...init, headers, credentials: "include" });
  if (!res.ok) throw await ApiError.fromResponse(res);
  return res;
}
