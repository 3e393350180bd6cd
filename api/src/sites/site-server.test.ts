/**
 * The site server's range answers on a published site (real database, real local store): single ranges
 * (closed, open, suffix) whatever Accept-Encoding says, several ranges as multipart/byteranges, 416 for
 * ranges outside the file, and the cases where Range is ignored. Paths, caching and compression at large:
 * routes/publish.test.ts; raw request targets through Caddy: security/site-paths.security.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalStore } from "../storage/local";
import { deploymentsAfterBuild, publishInstance, type PublishInstance } from "../test/publish-support";
import { dbLabel } from "../test/versions-support";

// Varied enough that brotli and gzip shrink it, big enough (≥ 1 KiB) to be compressed at all.
const TEXT = Array.from({ length: 120 }, (_, i) => `line ${i}: ${"abcdefghij".slice(i % 10)}\n`).join("");
const SIZE = new TextEncoder().encode(TEXT).length;
const BOTH = { "accept-encoding": "gzip, deflate, br" };

describe(`site ranges (${dbLabel()})`, () => {
  let a: PublishInstance;
  const slug = `ranges-${crypto.randomUUID().slice(0, 8)}`;
  const get = (headers: Record<string, string> = {}, path = "/data.txt") => a.site(slug, path, headers);

  beforeAll(async () => {
    a = await publishInstance({ store: createLocalStore(mkdtempSync(join(tmpdir(), "site-ranges-"))) });
    const alice = a.user("alice");
    const { id } = (await (await alice.request("POST", "/api/projects", { name: "Ranges" })).json()) as { id: string };
    for (const [path, content] of Object.entries({ "index.html": "<p>home</p>", "data.txt": TEXT, "404.html": "<p>gone</p>" })) {
      expect((await alice.request("POST", `/api/files/${id}`, { path, content })).status).toBe(201);
    }
    await alice.request("POST", `/api/projects/${id}/publish`, { slug });
    expect((await deploymentsAfterBuild(alice, id))[0]!.status).toBe("live");
  }, 120_000);
  afterAll(() => a?.close());

  test("the whole file is compressed for a client that accepts it (what a range answer must not be)", async () => {
    const res = await get(BOTH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
  });

  test("single ranges (closed, open, suffix) count bytes of the stored file, with or without Accept-Encoding", async () => {
    const identityTag = (await get()).headers.get("etag");
    const cases: [string, number, number][] = [
      ["bytes=0-4", 0, 4],
      ["bytes=100-", 100, SIZE - 1],
      ["bytes=-5", SIZE - 5, SIZE - 1],
      ["bytes=-100000", 0, SIZE - 1],
    ];
    for (const [range, start, end] of cases) {
      for (const extra of [{}, BOTH, { "accept-encoding": "gzip" }]) {
        const res = await get({ range, ...extra });
        const seen = {
          range,
          status: res.status,
          encoding: res.headers.get("content-encoding"),
          contentRange: res.headers.get("content-range"),
          etag: res.headers.get("etag"),
          vary: res.headers.get("vary"),
          type: res.headers.get("content-type"),
          body: await res.text(),
        };
        expect(seen).toEqual({
          range,
          status: 206,
          encoding: null,
          contentRange: `bytes ${start}-${end}/${SIZE}`,
          etag: identityTag,
          vary: "Accept-Encoding",
          type: "text/plain; charset=utf-8",
          body: TEXT.slice(start, end + 1),
        });
      }
    }
  });

  test("several ranges answer multipart/byteranges, in the order asked; overlapping ones are merged", async () => {
    const res = await get({ range: "bytes=0-1,4-5", ...BOTH });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-range")).toBeNull();
    const boundary = /^multipart\/byteranges; boundary=([0-9a-f]{32})$/.exec(res.headers.get("content-type") ?? "")?.[1];
    expect(boundary).toBeDefined();
    const part = (start: number, end: number) =>
      `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Range: bytes ${start}-${end}/${SIZE}\r\n\r\n${TEXT.slice(start, end + 1)}`;
    const body = await res.text();
    expect(body).toBe(`${part(0, 1)}\r\n${part(4, 5)}\r\n--${boundary}--\r\n`);

    const reversed = await (await get({ range: `bytes=-3, 10-12` })).text();
    expect(reversed.indexOf(`bytes ${SIZE - 3}-${SIZE - 1}/`)).toBeLessThan(reversed.indexOf(`bytes 10-12/`));

    const merged = await get({ range: "bytes=0-3,2-5,6-6" });
    expect(merged.status).toBe(206);
    expect(merged.headers.get("content-range")).toBe(`bytes 0-6/${SIZE}`);
    expect(await merged.text()).toBe(TEXT.slice(0, 7));
  });

  test("ranges outside the file answer 416 with Content-Range bytes */size", async () => {
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 5}-${SIZE + 10}`, "bytes=-0", `bytes=${SIZE}-,${SIZE + 1}-`]) {
      const res = await get({ range, ...BOTH });
      expect({ range, status: res.status, contentRange: res.headers.get("content-range"), body: await res.text() }).toEqual({
        range,
        status: 416,
        contentRange: `bytes */${SIZE}`,
        body: "",
      });
    }
    // One range past the end among good ones: the good ones are sent.
    const some = await get({ range: `bytes=${SIZE + 1}-,0-2` });
    expect(some.status).toBe(206);
    expect(await some.text()).toBe(TEXT.slice(0, 3));
  });

  test("Range is ignored when malformed, stale (If-Range), on HEAD and on a 404 page", async () => {
    for (const range of ["bytes=9-3", "items=0-1", `bytes=${Array.from({ length: 33 }, (_, i) => `${i * 3}-${i * 3}`).join(",")}`]) {
      const res = await get({ range });
      expect({ range, status: res.status, length: (await res.text()).length }).toEqual({ range, status: 200, length: TEXT.length });
    }
    const etag = (await get()).headers.get("etag")!;
    expect((await get({ range: "bytes=0-1", "if-range": etag })).status).toBe(206);
    expect((await get({ range: "bytes=0-1", "if-range": '"something-else"' })).status).toBe(200);
    expect((await get({ range: "bytes=0-1", "if-range": `W/${etag}` })).status).toBe(200);

    const headers = { host: `${slug}.${a.deps.config.sites.domain}`, range: "bytes=0-1" };
    const head = await a.sites.handle(new Request("http://127.0.0.1/data.txt", { method: "HEAD", headers }))!;
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(SIZE));

    const missing = await get({ range: "bytes=0-1" }, "/nope.txt");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("<p>gone</p>");
  });
});
