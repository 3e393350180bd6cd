/**
 * The one way the SPA calls its API: bearer token when signed in, cookies included, JSON in and out.
 * A non-OK answer throws ApiError.
 *
 * @example
 * const projects = await apiFetch<Project[]>("/api/projects");
 * const created = await apiFetch<Project>("/api/projects", { method: "POST", body: { name } });
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

/** apiRequest, then the JSON body (undefined for an empty answer such as 204). */
export async function apiFetch<T>(path: string, init: ApiInit = {}): Promise<T> {
  const res = await apiRequest(path, init);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A GET that answers null on 401 instead of throwing (the spec's "return null on 401" fetch). */
export async function apiFetchOrNullOn401<T>(path: string): Promise<T | null> {
  try {
    return await apiFetch<T>(path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}
