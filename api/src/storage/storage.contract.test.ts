/**
 * One contract for every ObjectStore, run against the local folder and against S3 (s3rver under node),
 * plus the few behaviours that belong to one implementation.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from "../test/s3-server";
import { createObjectStore } from "./index";
import { createLocalStore } from "./local";
import { createS3Store } from "./s3";
import type { ObjectStore } from "./types";

type StoreFactory = () => Promise<{ store: ObjectStore; close(): Promise<void> }>;

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | null) => (data === null ? null : new TextDecoder().decode(data));

function objectStoreContract(name: string, factory: StoreFactory) {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;
    let close: () => Promise<void>;
    let n = 0;
    /** A fresh key namespace per test, so tests never see each other's objects. */
    const ns = () => `t${++n}-${crypto.randomUUID().slice(0, 8)}/`;

    beforeAll(async () => {
      ({ store, close } = await factory());
    });
    afterAll(() => close());

    test("ping resolves", async () => {
      await store.ping();
    });

    test("put/get round-trips every byte value, NUL included", async () => {
      const key = `${ns()}bin/all-bytes.bin`;
      const body = new Uint8Array(512).map((_, i) => i % 256);
      body[0] = 0x00;
      await store.put(key, body, "application/octet-stream");
      const got = await store.get(key);
      expect(got).toBeInstanceOf(Uint8Array);
      expect(Array.from(got!)).toEqual(Array.from(body));
    });

    test("put/get round-trips an object larger than 1 MiB", async () => {
      const key = `${ns()}big.bin`;
      const body = new Uint8Array(1024 * 1024 + 12_345);
      for (let i = 0; i < body.length; i += 65_536) crypto.getRandomValues(body.subarray(i, i + 65_536));
      await store.put(key, body);
      const got = await store.get(key);
      expect(got?.length).toBe(body.length);
      expect(Buffer.compare(Buffer.from(got!), Buffer.from(body))).toBe(0);
    });

    test("getStream yields the object's bytes in pieces; a missing key or a folder of keys is null", async () => {
      const p = ns();
      const body = new Uint8Array(3 * 65_536 + 777);
      for (let i = 0; i < body.length; i += 65_536) crypto.getRandomValues(body.subarray(i, i + 65_536));
      await store.put(`${p}dir/big.bin`, body);
      const pieces: Uint8Array[] = [];
      const reader = (await store.getStream(`${p}dir/big.bin`))!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(r.value);
      expect(pieces.length).toBeGreaterThan(1);
      expect(Buffer.compare(Buffer.concat(pieces), Buffer.from(body))).toBe(0);
      expect(await store.getStream(`${p}nope.bin`)).toBeNull();
      expect(await store.getStream(`${p}dir`)).toBeNull();
      await store.put(`${p}empty`, new Uint8Array());
      expect((await new Response(await store.getStream(`${p}empty`)).arrayBuffer()).byteLength).toBe(0);
    });

    test("a getStream cancelled part-way releases the object (it can still be deleted and read again)", async () => {
      const key = `${ns()}cancel.bin`;
      await store.put(key, new Uint8Array(200_000).fill(7));
      const reader = (await store.getStream(key))!.getReader();
      expect((await reader.read()).value!.length).toBeGreaterThan(0);
      await reader.cancel();
      expect((await store.get(key))?.length).toBe(200_000);
      await store.delete(key);
      expect(await store.getStream(key)).toBeNull();
    });

    test("an empty object is an object, not a missing one", async () => {
      const key = `${ns()}empty.txt`;
      await store.put(key, new Uint8Array());
      expect((await store.get(key))?.length).toBe(0);
      expect(await store.list(key)).toEqual([key]);
    });

    test("put overwrites, including with a shorter body", async () => {
      const key = `${ns()}over.txt`;
      await store.put(key, bytes("first version, quite long"), "text/plain");
      await store.put(key, bytes("second"), "text/plain");
      expect(text(await store.get(key))).toBe("second");
      expect(await store.list(key)).toEqual([key]);
    });

    test("get of a missing key is null", async () => {
      const p = ns();
      expect(await store.get(`${p}nope.txt`)).toBeNull();
      await store.put(`${p}dir/file.txt`, bytes("x"));
      // A "folder" of other keys is not an object either.
      expect(await store.get(`${p}dir`)).toBeNull();
    });

    test("delete removes; deleting a missing key is fine", async () => {
      const p = ns();
      await store.put(`${p}a.txt`, bytes("a"));
      await store.put(`${p}b.txt`, bytes("b"));
      await store.delete(`${p}a.txt`);
      expect(await store.get(`${p}a.txt`)).toBeNull();
      expect(text(await store.get(`${p}b.txt`))).toBe("b");
      await store.delete(`${p}a.txt`);
      await store.delete(`${p}never/was/here.txt`);
      expect(await store.list(p)).toEqual([`${p}b.txt`]);
    });

    test("list is sorted and filters by string prefix, not by folder", async () => {
      const p = ns();
      const keys = [`${p}a/bc`, `${p}a/b/two`, `${p}ab`, `${p}a/b/one`, `${p}a/bc2/x`, `${p}a/a`];
      for (const key of keys) await store.put(key, bytes(key));
      await store.put(`other-${p}a/b/one`, bytes("elsewhere"));

      expect(await store.list(p)).toEqual([`${p}a/a`, `${p}a/b/one`, `${p}a/b/two`, `${p}a/bc`, `${p}a/bc2/x`, `${p}ab`]);
      expect(await store.list(`${p}a/b/`)).toEqual([`${p}a/b/one`, `${p}a/b/two`]);
      expect(await store.list(`${p}a/b`)).toEqual([`${p}a/b/one`, `${p}a/b/two`, `${p}a/bc`, `${p}a/bc2/x`]);
      expect(await store.list(`${p}a/bc`)).toEqual([`${p}a/bc`, `${p}a/bc2/x`]);
      expect(await store.list(`${p}a/b/o`)).toEqual([`${p}a/b/one`]);
      expect(await store.list(`${p}zzz`)).toEqual([]);
      expect(await store.list(`${ns()}nothing/here/`)).toEqual([]);
      await store.deletePrefix(`other-${p}`);
    });

    test("list sorts in S3's UTF-8 byte order", async () => {
      const p = ns();
      // code points: z 0x7A < é 0xE9 < ！ 0xFF01 < 😀 0x1F600 (plain sort() puts 😀 before ！)
      const names = ["😀", "！", "é", "z", "Z", "a b"];
      for (const name of names) await store.put(`${p}${name}`, bytes(name));
      expect(await store.list(p)).toEqual(["Z", "a b", "z", "é", "！", "😀"].map((x) => `${p}${x}`));
    });

    test("keys with spaces and unicode round-trip and list back exactly", async () => {
      const p = ns();
      const keys = [`${p}dir with space/file name.txt`, `${p}ünïcödé/日本語.md`, `${p}emoji 😀/ok.txt`, `${p}odd/+%&=?#;.txt`];
      for (const key of keys) await store.put(key, bytes(`body of ${key}`));
      for (const key of keys) expect(text(await store.get(key))).toBe(`body of ${key}`);
      expect(await store.list(p)).toEqual([...keys].sort());
    });

    test("deletePrefix returns the count and leaves other prefixes alone", async () => {
      const p = ns();
      for (const key of ["a/b/one", "a/b/two", "a/b/deep/three", "a/bc", "a/c", "b"]) await store.put(`${p}${key}`, bytes(key));

      expect(await store.deletePrefix(`${p}a/b/`)).toBe(3);
      expect(await store.list(p)).toEqual([`${p}a/bc`, `${p}a/c`, `${p}b`]);
      expect(await store.get(`${p}a/b/one`)).toBeNull();

      expect(await store.deletePrefix(`${p}a/b`)).toBe(1); // a string prefix: takes a/bc too
      expect(await store.list(p)).toEqual([`${p}a/c`, `${p}b`]);

      expect(await store.deletePrefix(`${p}missing/`)).toBe(0);
      expect(await store.deletePrefix(p)).toBe(2);
      expect(await store.list(p)).toEqual([]);
      // The namespace is reusable after being emptied.
      await store.put(`${p}a/b/again`, bytes("again"));
      expect(text(await store.get(`${p}a/b/again`))).toBe("again");
    });

    test("deletePrefix refuses the empty prefix (it would wipe the store)", async () => {
      const key = `${ns()}survivor`;
      await store.put(key, bytes("x"));
      await expect(store.deletePrefix("")).rejects.toThrow(/empty prefix/);
      expect(text(await store.get(key))).toBe("x");
    });

    test("list and deletePrefix span more than 1000 keys (pages and batches)", async () => {
      const p = ns();
      const keys = Array.from({ length: 1003 }, (_, i) => `${p}k/${String(i).padStart(4, "0")}`);
      for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => store.put(k, bytes(k))));
      await store.put(`${p}keep`, bytes("keep"));

      expect(await store.list(`${p}k/`)).toEqual(keys);
      expect(await store.deletePrefix(`${p}k/`)).toBe(1003);
      expect(await store.list(p)).toEqual([`${p}keep`]);
    });
  });
}

// ---- local folder ----------------------------------------------------------------------------------

let localDir: string;
objectStoreContract("local folder", async () => {
  localDir = await mkdtemp(join(tmpdir(), "objects-"));
  return { store: createLocalStore(join(localDir, "not-yet-created")), close: () => rm(localDir, { recursive: true, force: true }) };
});

describe("local store specifics", () => {
  let dir: string;
  let store: ObjectStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "objects-local-"));
    store = createLocalStore(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test.each([
    ["a parent step", "../escape.txt"],
    ["a parent step inside", "a/../../escape.txt"],
    ["an absolute path", "/etc/passwd"],
    ["a backslash", "a\\b.txt"],
    ["a NUL", "a\0b.txt"],
    ["an empty part", "a//b.txt"],
    ["a dot part", "a/./b.txt"],
    ["an empty key", ""],
  ])("refuses a key with %s", async (_why, key) => {
    await expect(store.put(key, bytes("x"))).rejects.toThrow(/Refusing storage key/);
    await expect(store.get(key)).rejects.toThrow(/Refusing storage key/);
    await expect(store.delete(key)).rejects.toThrow(/Refusing storage key/);
  });

  test("refuses list/deletePrefix prefixes that climb out", async () => {
    await expect(store.list("../")).rejects.toThrow(/Refusing storage prefix/);
    await expect(store.deletePrefix("a/../../")).rejects.toThrow(/Refusing storage prefix/);
    await expect(store.list("a\\")).rejects.toThrow(/Refusing storage prefix/);
  });

  test("objects are plain files; deletes leave no empty folders behind", async () => {
    await store.put("p1/src/deep/a.txt", bytes("a"));
    await store.put("p1/src/b.txt", bytes("b"));
    expect(await Bun.file(join(dir, "p1/src/deep/a.txt")).text()).toBe("a");

    await store.delete("p1/src/deep/a.txt");
    expect(await readdir(join(dir, "p1/src"))).toEqual(["b.txt"]);
    expect(await store.deletePrefix("p1/")).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  test("a temp file left by an interrupted write is never listed, and writes leave none", async () => {
    await store.put("p2/file.txt", bytes("whole"));
    expect(await readdir(join(dir, "p2"))).toEqual(["file.txt"]);
    await writeFile(join(dir, "p2", ".tmp-0123456789abcdef"), "half-writ");
    expect(await store.list("p2/")).toEqual(["p2/file.txt"]);
    expect(await store.deletePrefix("p2/")).toBe(1);
  });

  test("concurrent writes to one key leave one whole version", async () => {
    const versions = Array.from({ length: 20 }, (_, i) => bytes(String(i).repeat(10_000 + i)));
    await Promise.all(versions.map((v) => store.put("p3/race.txt", v)));
    const got = text(await store.get("p3/race.txt"))!;
    expect(versions.map((v) => text(v))).toContain(got);
    expect(await readdir(join(dir, "p3"))).toEqual(["race.txt"]);
  });

  test("ping fails when the folder cannot be created", async () => {
    await writeFile(join(dir, "a-file"), "x");
    await expect(createLocalStore(join(dir, "a-file", "objects")).ping()).rejects.toThrow();
  });
});

// ---- S3 (s3rver under node) --------------------------------------------------------------------------

let s3: S3TestServer | undefined;
const s3Options = (server: S3TestServer, overrides: Partial<Parameters<typeof createS3Store>[0]> = {}) => ({
  bucket: server.bucket,
  endpoint: server.endpoint,
  region: "us-east-1",
  forcePathStyle: true,
  ...S3RVER_CREDENTIALS,
  ...overrides,
});

objectStoreContract("S3 (s3rver)", async () => {
  s3 = await startS3Server();
  return { store: createS3Store(s3Options(s3)), close: async () => {} };
});

describe("S3 store specifics", () => {
  afterAll(async () => {
    await s3?.stop();
  });

  test("a missing bucket is an error, not a missing object", async () => {
    const store = createS3Store(s3Options(s3!, { bucket: "no-such-bucket" }));
    await expect(store.get("anything")).rejects.toThrow();
    await expect(store.ping()).rejects.toThrow();
  });

  test("an unknown access key is an error", async () => {
    const store = createS3Store(s3Options(s3!, { accessKeyId: "NOT-S3RVER" }));
    await expect(store.put("x", bytes("x"))).rejects.toThrow();
  });

  test("a 404 that is not NoSuchKey (a wrong endpoint) is an error, not a missing object", async () => {
    using server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("not here", { status: 404 }) });
    const store = createS3Store(s3Options(s3!, { endpoint: `http://127.0.0.1:${server.port}` }));
    await expect(store.get("projects/p/files/a.txt")).rejects.toThrow();
  });

  test("deletePrefix throws when S3 reports per-key errors", async () => {
    // A stand-in that lists two keys and refuses to delete one of them.
    using server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const xml = (body: string) => new Response(`<?xml version="1.0" encoding="UTF-8"?>${body}`, { headers: { "content-type": "application/xml" } });
        if (req.method === "GET") {
          return xml(
            `<ListBucketResult><Name>b</Name><Prefix>p/</Prefix><KeyCount>2</KeyCount><IsTruncated>false</IsTruncated>` +
              `<Contents><Key>p/a</Key></Contents><Contents><Key>p/b</Key></Contents></ListBucketResult>`,
          );
        }
        return xml(`<DeleteResult><Error><Key>p/b</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error></DeleteResult>`);
      },
    });
    const store = createS3Store(s3Options(s3!, { bucket: "b", endpoint: `http://127.0.0.1:${server.port}` }));
    await expect(store.deletePrefix("p/")).rejects.toThrow(/could not delete 1 of 2 .*p\/b: AccessDenied/);
  });

  test("ping against a closed port rejects within 10 s", async () => {
    const port = await closedPort();
    const store = createS3Store(s3Options(s3!, { endpoint: `http://127.0.0.1:${port}` }));
    const started = performance.now();
    await expect(store.ping()).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test("ping against a server that accepts but never answers rejects within 10 s", async () => {
    const { server, port, sockets } = await silentServer();
    try {
      const store = createS3Store(s3Options(s3!, { endpoint: `http://127.0.0.1:${port}` }));
      const started = performance.now();
      await expect(store.ping()).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  }, 20_000);
});

describe("createObjectStore", () => {
  test("builds the store the config names", () => {
    expect(createObjectStore({ kind: "local", dir: join(tmpdir(), "unused-objects") }).kind).toBe("local");
    expect(createObjectStore({ kind: "s3", bucket: "b", region: "us-east-1", forcePathStyle: true }).kind).toBe("s3");
  });
});

async function closedPort(): Promise<number> {
  const { server, port } = await silentServer();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function silentServer(): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket); // hold the connection open and say nothing
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { server, port: address.port, sockets };
}
