/**
 * Attacks on the server's shared storage by one signed-in user, replayed against the real app (its routes,
 * database and object store) with a second user beside her:
 * - "projects per user": an account already holding MAX_PROJECTS_PER_USER projects makes one more, by
 *   creating it or by importing a zip. Safe outcome: 409 naming the cap, and nothing is created (no project
 *   row, no stored object); another user still creates projects.
 * - "uploads count toward the project's bytes": chat image uploads were stored outside the project's size
 *   limit, so a user could fill the disk through them. Safe outcome: an upload past MAX_PROJECT_BYTES is
 *   refused (413) before anything is stored, and it does not eat into another user's project.
 * (Both limits on every write path, and across two instances, are covered in api/src/routes/limits.test.ts.)
 */
import { beforeAll, describe, expect, test } from "bun:test";
import JSZip from "jszip";
import { TINY_PNG, uploadImage } from "../api/src/test/images";
import { testApp, type TestUser } from "../api/src/test/test-app";

const MAX_PROJECTS = 2;
// uploadImage's PNG is 70 bytes, so one fits in MAX_BYTES and two do not.
const MAX_BYTES = 100;

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({ env: { MAX_PROJECTS_PER_USER: String(MAX_PROJECTS), MAX_PROJECT_BYTES: String(MAX_BYTES) } });
}, 60_000);

const create = async (u: TestUser, name: string) => u.request("POST", "/api/projects", { name });
const projectIds = async (u: TestUser) => (await t.db.sql<{ id: string }[]>`select id from projects where owner_id = ${u.uid} order by id`).map((r) => r.id);
const storedObjects = async () => (await t.deps.store.list("projects/")).length;

function importZip(u: TestUser, zip: Uint8Array) {
  const form = new FormData();
  form.append("file", new File([zip as Uint8Array<ArrayBuffer>], "one-more.zip", { type: "application/zip" }));
  return u.request("POST", "/api/projects/import", form);
}

describe("quotas: one user cannot take more than her share", () => {
  test("projects per user: an account at MAX_PROJECTS_PER_USER creating or importing one more gets 409, nothing created", async () => {
    const mallory = t.user("mallory");
    for (let i = 0; i < MAX_PROJECTS; i++) expect((await create(mallory, `P${i}`)).status).toBe(201);
    const held = await projectIds(mallory);
    expect(held.length).toBe(MAX_PROJECTS);
    const objectsBefore = await storedObjects();
    const message = `You already have ${MAX_PROJECTS} projects, the most one account may have (${MAX_PROJECTS}). Delete a project to make room.`;

    const created = await create(mallory, "One more");
    expect(created.status).toBe(409);
    expect(await created.json()).toEqual({ error: message, code: "conflict" });

    // A valid zip that would import fine for anyone with room: the cap, not the zip, refuses it.
    const zip = new JSZip();
    zip.file("package.json", '{ "name": "one-more" }\n');
    zip.file("src/main.ts", "console.log('one more');\n");
    const imported = await importZip(mallory, await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
    expect(imported.status).toBe(409);
    expect(((await imported.json()) as { error: string }).error).toBe(message);

    // Nothing was created: the same projects, no file rows or stored objects for a half-made one.
    expect(await projectIds(mallory)).toEqual(held);
    const [files] = await t.db.sql<
      { n: number }[]
    >`select count(*)::int as n from files f join projects p on p.id = f.project_id where p.owner_id = ${mallory.uid}`;
    expect(files!.n).toBe(0);
    expect(await storedObjects()).toBe(objectsBefore);
    expect(((await (await mallory.request("GET", "/api/projects")).json()) as unknown[]).length).toBe(MAX_PROJECTS);

    // The cap is per account: another user creates and imports as usual.
    const alice = t.user("alice");
    expect((await create(alice, "Alice's")).status).toBe(201);
    expect((await importZip(alice, await zip.generateAsync({ type: "uint8array" }))).status).toBe(201);
  });

  test("uploads count toward the project's bytes: an image upload past MAX_PROJECT_BYTES is refused (413) and nothing is stored", async () => {
    const mallory = t.user("mallory");
    const { id } = (await (await create(mallory, "Uploads")).json()) as { id: string };
    expect((await uploadImage(mallory, id)).status).toBe(201); // 70 of the 100 bytes

    for (let i = 0; i < 3; i++) {
      const over = await uploadImage(mallory, id);
      expect(over.status).toBe(413);
      expect(await over.json()).toEqual({
        error: `This write would bring the project to ${2 * TINY_PNG.length} bytes, over its limit of ${MAX_BYTES} bytes. Delete some files first.`,
        code: "payload_too_large",
      });
    }
    // Nothing stored for the refused ones: one upload row, one object, the project's bytes unchanged.
    const rows = await t.db.sql<{ size: number }[]>`select size::int as size from uploads where project_id = ${id}`;
    expect([...rows]).toEqual([{ size: TINY_PNG.length }]);
    expect((await t.deps.store.list(`projects/${id}/uploads/`)).length).toBe(1);
    // The uploads hold the room a file would need: a 40-byte file no longer fits either.
    expect((await mallory.request("POST", `/api/files/${id}`, { path: "a.txt", content: "z".repeat(40) })).status).toBe(413);

    // The limit is the project's: another user's project takes its own upload.
    const bob = t.user("bob");
    const { id: bobs } = (await (await create(bob, "Bob's")).json()) as { id: string };
    expect((await uploadImage(bob, bobs)).status).toBe(201);
  });
});
