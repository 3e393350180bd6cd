import { afterEach, expect, test } from "bun:test";
import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api-error";
import { queries } from "./queries";
import { fileKeys, projectKeys, versionKeys } from "./query-keys";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Answers every fetch with `answer`, recording the URL and whether a cancel signal came along. */
function stubFetch(answer: () => Response): { url: string; signal: boolean }[] {
  const seen: { url: string; signal: boolean }[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    seen.push({ url: String(input), signal: init.signal instanceof AbortSignal });
    return answer();
  }) as typeof fetch;
  return seen;
}

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
/** A query's key as a plain array (queryOptions tags it with its data type). */
const keyOf = (query: { queryKey: readonly unknown[] }): unknown[] => [...query.queryKey];
const fresh = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

test("a query's key comes from the key factory and is not what its function fetches", async () => {
  expect(keyOf(queries.files("p/1"))).toEqual([...fileKeys.list("p/1")]);
  expect(keyOf(queries.versions("p1"))).toEqual([...versionKeys.list("p1")]);
  const seen = stubFetch(() => json([]));
  expect(await fresh().fetchQuery(queries.files("p/1"))).toEqual([]);
  // The versions key is ["projects", id, "versions"]; its function asks for a full page.
  await fresh().fetchQuery(queries.versions("p1"));
  expect(seen).toEqual([
    { url: "/api/files/p%2F1", signal: true },
    { url: "/api/projects/p1/versions?limit=200", signal: true },
  ]);
});

test("an answer that does not match its schema fails the query", async () => {
  stubFetch(() => json([{ id: 1 }]));
  await expect(fresh().fetchQuery(queries.files("p1"))).rejects.toThrow();
});

test("the project list reads a 401 as null (no session); other queries throw it", async () => {
  stubFetch(() => json({ error: "Sign in first", code: "unauthorized" }, 401));
  const client = fresh();
  expect(await client.fetchQuery(queries.projects())).toBeNull();
  const err = await client.fetchQuery(queries.project("p1")).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(401);
  expect(keyOf(queries.project("p1"))).toEqual([...projectKeys.detail("p1")]);
});

test("a side of a diff without the file reads as empty text and fetches nothing", async () => {
  const seen = stubFetch(() => json({}));
  expect(await fresh().fetchQuery(queries.versionFile("p1", "v1", null))).toEqual({ text: "" });
  expect(seen).toEqual([]);
});
