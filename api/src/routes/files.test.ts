import { beforeAll, describe, expect, test } from "bun:test";
import { grantedAccess } from "../test/access";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_FILE_PATH_LENGTH } from "@shared/file-path";
import { sha256Hex } from "../services/content-blobs";
import { createLocalStore } from "../storage/local";
import { flakyStore } from "../test/flaky-store";
import { testApp, type TestUser } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
let store: ReturnType<typeof flakyStore>;
beforeAll(async () => {
  store = flakyStore(createLocalStore(mkdtempSync(join(tmpdir(), "files-test-"))));
  t = await testApp({ store });
}, 60_000);

async function newProject(user: TestUser, name = "P") {
  return (await (await user.request("POST", "/api/projects", { name })).json()) as { id: string; updatedAt: string };
}
/** How many of the project's files have their content in the store (stored as content-addressed blobs). */
async function objectCount(projectId: string): Promise<number> {
  const rows = await t.db.sql<{ storageKey: string }[]>`select storage_key as "storageKey" from files where project_id = ${projectId}`;
  let stored = 0;
  for (const row of rows) if (await store.get(row.storageKey)) stored++;
  return stored;
}

describe(`files routes (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("create, list, read, save, rename, delete", async () => {
    const alice = t.user("alice");
    const p = await newProject(alice);
    const created = await alice.request("POST", `/api/files/${p.id}`, { path: "src/App.tsx", content: "export const a = 1;\n" });
    expect(created.status).toBe(201);
    const file = await created.json();
    expect(file).toMatchObject({ path: "src/App.tsx", size: 20, projectId: p.id });
    expect(file.storageKey).toBeUndefined();

    const list = await (await alice.request("GET", `/api/files/${p.id}`)).json();
    expect(list).toEqual([file]);

    const content = await (await alice.request("GET", `/api/files/${p.id}/${file.id}`)).json();
    expect(content).toMatchObject({ id: file.id, path: "src/App.tsx", content: "export const a = 1;\n", binary: false });

    const saved = await alice.request("PATCH", `/api/files/${file.id}/content`, { content: "héllo" });
    expect(saved.status).toBe(200);
    expect((await saved.json()).size).toBe(6);
    expect((await (await alice.request("GET", `/api/files/${p.id}/${file.id}`)).json()).content).toBe("héllo");
    expect(await objectCount(p.id)).toBe(1);

    const renamed = await alice.request("PATCH", `/api/files/${file.id}/rename`, { newPath: "src/Main.tsx" });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).path).toBe("src/Main.tsx");
    expect((await (await alice.request("GET", `/api/files/${p.id}/${file.id}`)).json()).content).toBe("héllo");

    expect((await alice.request("DELETE", `/api/files/${file.id}`)).status).toBe(200);
    expect(await (await alice.request("GET", `/api/files/${p.id}`)).json()).toEqual([]);
    expect(await objectCount(p.id)).toBe(0);
    expect((await alice.request("DELETE", `/api/files/${file.id}`)).status).toBe(404);
  });

  test("POST to an existing path replaces its content (200) and a file change moves the project up", async () => {
    const bob = t.user("bob");
    const p = await newProject(bob);
    const first = await (await bob.request("POST", `/api/files/${p.id}`, { path: "a.txt", content: "one" })).json();
    const again = await bob.request("POST", `/api/files/${p.id}`, { path: "a.txt", content: "two!" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: first.id, size: 4 });
    const project = await (await bob.request("GET", `/api/projects/${p.id}`)).json();
    expect(project.updatedAt > p.updatedAt).toBe(true);
  });

  test("rename onto an existing path is a 409 and changes nothing", async () => {
    const carol = t.user("carol");
    const p = await newProject(carol);
    const a = await (await carol.request("POST", `/api/files/${p.id}`, { path: "a.txt", content: "a" })).json();
    await carol.request("POST", `/api/files/${p.id}`, { path: "b.txt", content: "b" });
    const res = await carol.request("PATCH", `/api/files/${a.id}/rename`, { newPath: "b.txt" });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: "A file already exists at b.txt.", code: "conflict" });
    const paths = (await (await carol.request("GET", `/api/files/${p.id}`)).json()).map((f: { path: string }) => f.path);
    expect(paths).toEqual(["a.txt", "b.txt"]);
  });

  test("illegal paths answer 400 and write nothing", async () => {
    const dave = t.user("dave");
    const p = await newProject(dave);
    const bad = ["../etc/passwd", "a/../../b", "/abs.txt", "a\\b.txt", "a\u0000b", "a\nb", "a//b", "./a", "", "x".repeat(MAX_FILE_PATH_LENGTH + 1)];
    for (const path of bad) {
      const res = await dave.request("POST", `/api/files/${p.id}`, { path, content: "x" });
      expect(res.status, JSON.stringify(path)).toBe(400);
      expect((await res.json()).code).toBe("bad_request");
    }
    const ok = await (await dave.request("POST", `/api/files/${p.id}`, { path: "ok.txt", content: "x" })).json();
    expect((await dave.request("PATCH", `/api/files/${ok.id}/rename`, { newPath: "../escape" })).status).toBe(400);
    expect((await (await dave.request("GET", `/api/files/${p.id}`)).json()).map((f: { path: string }) => f.path)).toEqual(["ok.txt"]);
    expect(await objectCount(p.id)).toBe(1);
  });

  test("content over the limit answers 413", async () => {
    const erin = t.user("erin");
    const p = await newProject(erin);
    const res = await erin.request("POST", `/api/files/${p.id}`, { path: "big.txt", content: "x".repeat(5 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(await objectCount(p.id)).toBe(0);
    expect(await store.list("blobs/sha256/" + sha256Hex(new TextEncoder().encode("x".repeat(5 * 1024 * 1024 + 1))))).toEqual([]);
  });

  test("download returns every file; binary content comes base64 and is listed", async () => {
    const frank = t.user("frank");
    const p = await newProject(frank, "Shop");
    await frank.request("POST", `/api/files/${p.id}`, { path: "index.html", content: "<h1>hi</h1>" });
    await frank.request("POST", `/api/files/${p.id}`, { path: "src/main.ts", content: "console.log(1)" });
    // A binary file can only be written through the service (the agent's sandbox sync does this).
    const { writeFileAtPath } = await import("../services/files");
    await writeFileAtPath(t.deps, grantedAccess(frank.uid, p.id), "logo.bin", new Uint8Array([0, 1, 2, 255]));

    const res = await frank.request("GET", `/api/files/${p.id}/download`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      projectName: "Shop",
      filesCount: 3,
      files: { "index.html": "<h1>hi</h1>", "src/main.ts": "console.log(1)", "logo.bin": "AAEC/w==" },
      binary: ["logo.bin"],
    });
    const logo = (await (await frank.request("GET", `/api/files/${p.id}`)).json()).find((f: { path: string }) => f.path === "logo.bin");
    const read = await (await frank.request("GET", `/api/files/${p.id}/${logo.id}`)).json();
    expect(read).toMatchObject({ binary: true, content: "" });
  });

  test("storage failures answer 503 and leave rows and objects consistent", async () => {
    const gina = t.user("gina");
    const p = await newProject(gina);
    const file = await (await gina.request("POST", `/api/files/${p.id}`, { path: "keep.txt", content: "v1" })).json();
    try {
      store.failing.add("put");
      const create = await gina.request("POST", `/api/files/${p.id}`, { path: "new.txt", content: "x" });
      expect(create.status).toBe(503);
      expect(await create.json()).toEqual({ error: "Storage is unreachable right now; try again in a moment.", code: "dependency_unavailable" });
      expect((await gina.request("PATCH", `/api/files/${file.id}/content`, { content: "v2" })).status).toBe(503);
      store.failing.clear();

      // A file's content is a blob versions may name: deleting the file deletes no object (the blob sweep
      // does, once nothing names it), so a store that cannot delete does not stop it.
      const other = await (await gina.request("POST", `/api/files/${p.id}`, { path: "other.txt", content: "o" })).json();
      store.failing.add("delete");
      expect((await gina.request("DELETE", `/api/files/${other.id}`)).status).toBe(200);
      store.failing.clear();

      const files = await (await gina.request("GET", `/api/files/${p.id}`)).json();
      expect(files.map((f: { path: string }) => f.path)).toEqual(["keep.txt"]);
      expect((await (await gina.request("GET", `/api/files/${p.id}/${file.id}`)).json()).content).toBe("v1");
      expect(await objectCount(p.id)).toBe(1);

      store.failing.add("deletePrefix");
      expect((await gina.request("DELETE", `/api/projects/${p.id}`)).status).toBe(503);
      store.failing.clear();
      expect((await gina.request("GET", `/api/projects/${p.id}`)).status).toBe(200);
      expect(await objectCount(p.id)).toBe(1);
    } finally {
      store.failing.clear();
    }
  });
});
