import { afterEach, expect, test } from "bun:test";
import { ApiError } from "./api-error";
import { setTokenSource } from "./auth-token";
import { api, apiPath } from "./endpoints";

type Seen = {
  url: string;
  method: string;
  auth: string | null;
  body: string | null;
  credentials?: RequestCredentials;
  /** A multipart body, when one was sent. */
  form?: FormData;
  /** The Content-Type the client set itself, if any (for multipart, fetch adds it with the boundary). */
  contentType?: string;
};
const realFetch = globalThis.fetch;

/** Answers every fetch with `answer` and records what was asked. */
function stubFetch(answer: () => Response): Seen[] {
  const seen: Seen[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    seen.push({
      url: String(input),
      method: init.method ?? "GET",
      auth: headers.get("Authorization"),
      body: typeof init.body === "string" ? init.body : null,
      credentials: init.credentials,
      ...(init.body instanceof FormData ? { form: init.body } : {}),
      ...(headers.has("Content-Type") ? { contentType: headers.get("Content-Type")! } : {}),
    });
    return answer();
  }) as typeof fetch;
  return seen;
}

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });

afterEach(() => {
  globalThis.fetch = realFetch;
  setTokenSource(async () => null);
});

test("path parameters are encoded, so an id cannot add or change a path segment", () => {
  expect(apiPath("files", "p/1", "a b?c")).toBe("/api/files/p%2F1/a%20b%3Fc");
});

test("a GET carries the bearer and cookies, and its answer is parsed with the shared schema", async () => {
  setTokenSource(async () => "tok");
  const project = {
    id: "p/1",
    name: "Demo",
    description: null,
    sandboxId: null,
    sandboxUrl: null,
    workflowCommand: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    extra: "dropped",
  };
  const seen = stubFetch(() => json(project));
  const got = await api.projects.get("p/1");
  expect(seen).toEqual([{ url: "/api/projects/p%2F1", method: "GET", auth: "Bearer tok", body: null, credentials: "include" }]);
  expect(got).toEqual({ ...project, extra: undefined } as never);
  expect("extra" in got).toBe(false);
});

test("an answer that does not match its schema is an error, not a silently wrong value", async () => {
  stubFetch(() => json({ isValid: "yes" }));
  await expect(api.sandbox.validate("p")).rejects.toThrow();
});

test("a POST sends its JSON body to the right path", async () => {
  const seen = stubFetch(() => json({ stdout: "hi\n", stderr: "", error: null }));
  expect(await api.sandbox.shell("p 1", "echo hi")).toEqual({ stdout: "hi\n", stderr: "", error: null });
  expect(seen[0]).toMatchObject({ url: "/api/sandbox/p%201/shell", method: "POST", body: '{"command":"echo hi"}' });
});

test("a non-OK answer throws ApiError with the server's sentence", async () => {
  stubFetch(() => json({ error: "Project not found", code: "not_found" }, 404));
  const err = await api.projects.remove("gone").catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).error).toBe("Project not found");
});

test("an empty answer (DELETE) is accepted", async () => {
  const seen = stubFetch(() => new Response(null, { status: 204 }));
  await api.files.remove("f1");
  expect(seen[0]).toMatchObject({ url: "/api/files/f1", method: "DELETE" });
});

test("the project-events socket follows the page's scheme", () => {
  expect(api.files.eventsSocketUrl({ protocol: "https:", host: "app.example" })).toBe("wss://app.example/api/ws");
  expect(api.files.eventsSocketUrl({ protocol: "http:", host: "localhost:3000" })).toBe("ws://localhost:3000/api/ws");
});

test("a file at a version keeps its folders as path segments, and bytes that are not text read as null", async () => {
  const seen = stubFetch(() => new Response("const a = 1;\n", { headers: { "content-type": "text/plain; charset=utf-8" } }));
  expect(await api.versions.fileText("p1", "current", "src/a b.ts")).toEqual({ text: "const a = 1;\n" });
  expect(seen[0]!.url).toBe("/api/projects/p1/versions/current/files/src/a%20b.ts");
  stubFetch(() => new Response(new Uint8Array([0, 159]), { headers: { "content-type": "application/octet-stream" } }));
  expect(await api.versions.fileText("p1", "v1", "logo.png")).toEqual({ text: null });
});

test("the versions list asks for a full page, and restore posts to the version", async () => {
  const version = {
    id: "v1",
    createdAt: "2026-01-01T00:00:00.000Z",
    label: "Saved",
    source: "manual",
    filesChanged: 1,
    bytes: 10,
    data: "none",
    dataChanged: false,
  };
  let seen = stubFetch(() => json([version]));
  const list = await api.versions.list("p1");
  expect(list).toEqual([version as never]);
  expect(seen[0]!.url).toBe("/api/projects/p1/versions?limit=200");
  seen = stubFetch(() => json({ version, written: 1, deleted: 0, data: "unchanged" }));
  expect((await api.versions.restore("p1", "v1")).written).toBe(1);
  expect(seen[0]).toMatchObject({ url: "/api/projects/p1/versions/v1/restore", method: "POST" });
});

test("import sends the zip and the trimmed name as multipart, and a refused zip throws with the server's reason", async () => {
  const project = {
    id: "p2",
    name: "Given",
    description: null,
    sandboxId: null,
    sandboxUrl: null,
    workflowCommand: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
  const sent = stubFetch(() => json(project, 201));
  const zip = new File([new Uint8Array([80, 75, 3, 4])], "app.zip", { type: "application/zip" });
  expect(await api.projects.import(zip, "  Given ")).toEqual(project);
  const [named] = sent;
  expect([named!.url, named!.method, named!.contentType]).toEqual(["/api/projects/import", "POST", undefined]); // fetch sets the multipart boundary
  expect(named!.form?.get("name")).toBe("Given");
  const file = named!.form?.get("file");
  expect(file instanceof File && new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
  await api.projects.import(zip);
  expect(sent[1]!.form?.has("name")).toBe(false);

  stubFetch(() => json({ error: "../evil.txt contains '..'; every entry must stay inside the project.", code: "bad_request" }, 400));
  const err = await api.projects.import(zip).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).error).toContain("contains '..'");
});

test("the streamed ZIP is read from download.zip as bytes", async () => {
  const seen = stubFetch(() => new Response(new Uint8Array([80, 75, 5, 6]), { headers: { "content-type": "application/zip" } }));
  const blob = await api.files.downloadZip("p 1");
  expect(seen[0]).toMatchObject({ url: "/api/files/p%201/download.zip", method: "GET" });
  expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([80, 75, 5, 6]));
});
