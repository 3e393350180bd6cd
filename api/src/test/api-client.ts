/**
 * The route tests' typed client: Hono's `hc<ApiRoutes>` over `app.request` (what `hono/testing`'s
 * `testClient` does, with the `/api` prefix and a user's bearer), so a test calls the app by the same route
 * types as the web client, and a path, parameter or body the app does not accept fails `tsc`.
 *
 * @example
 * const res = await alice.api.projects.$post({ json: { name: "Todo" } });
 * expect(res.status).toBe(201);
 * const project = await res.json(); // typed by the route's answer
 */
import { type ErrorBody, errorBodySchema } from "@shared/errors";
import { hc } from "hono/client";
import type { ApiRoutes } from "../app";

/** What the client needs of the app: Hono's `request`, which answers without a network. */
type Requestable = { request(input: RequestInfo | URL, init?: RequestInit): Response | Promise<Response> };

export function apiClient(app: Requestable, token?: string) {
  return hc<ApiRoutes>("http://localhost/api", {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => app.request(input, init),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

export type ApiClient = ReturnType<typeof apiClient>;

/**
 * An error answer's `{ error, code }` (from app.onError, which the route types do not list), checked with
 * the shared schema rather than cast.
 */
export async function errorBody(res: { json(): Promise<unknown> }): Promise<ErrorBody> {
  return errorBodySchema.parse(await res.json());
}
