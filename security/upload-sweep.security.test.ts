/**
 * Attack replayed: "unattached uploads fill the disk": a user uploads chat images and never sends them
 * (a message typed and abandoned, or uploads made only to take space), and they were kept for ever.
 * Against the real app (its upload and chat routes, a scripted model, the test database and object store),
 * with the server's own sweep (services/upload-sweep.ts, which the server runs every 10 minutes) and the
 * day passed by moving the uploads' created time back in the database.
 * Safe outcome: a day-old image never sent is gone (its row and its stored object; its link answers 404),
 * while another user's image sent with a message stays and still serves, as does an upload still young.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sweepUnattachedUploads } from "../api/src/services/upload-sweep";
import { chatTestApp, readEvents } from "../api/src/test/chat-test-app";
import { imageForm } from "../api/src/test/images";
import { startFakeModelServer, turn, type FakeModelServer } from "../api/src/test/fake-model-server";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});

type ChatUser = ReturnType<typeof t.user>;
async function upload(u: ChatUser, projectId: string): Promise<string> {
  const res = await t.app.request("/api/upload/image", { method: "POST", body: imageForm(projectId), headers: { authorization: `Bearer ${u.token}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url: string }).url;
}
const nameOf = (url: string) => url.split("?")[0]!.split("/").pop()!;
/** The upload's row and stored object, and what its signed link answers (no sign-in: an `<img>` sends none). */
async function where(projectId: string, url: string) {
  const [row] = await t.db.sql<
    { attached: boolean }[]
  >`select attached_at is not null as attached from uploads where project_id = ${projectId} and name = ${nameOf(url)}`;
  const stored = (await t.deps.store.list(`projects/${projectId}/uploads/`)).some((key) => key.endsWith(`/${nameOf(url)}`));
  return { row: row ?? null, stored, link: (await t.app.request(url)).status };
}

describe("unattached uploads", () => {
  test("unattached uploads are deleted after a day: an image uploaded and never sent is gone (row and stored object) after the sweep; one attached to a message stays", async () => {
    const mallory = t.user("mallory");
    const hers = await mallory.project("Filler");
    const abandoned = await upload(mallory, hers);
    const young = await upload(mallory, hers);

    const alice = t.user("alice");
    const alices = await alice.project("Shop");
    const sent = await upload(alice, alices);
    model.enqueue(turn.text("A 1x1 image."));
    const events = await readEvents(await alice.request("POST", "/api/messages/stream", { projectId: alices, content: "What is this?", attachments: [sent] }));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });

    expect(await where(hers, abandoned)).toEqual({ row: { attached: false }, stored: true, link: 200 });
    expect(await where(alices, sent)).toEqual({ row: { attached: true }, stored: true, link: 200 });

    // A day and an hour pass for the abandoned upload and the sent one; the young one was just made.
    await t.db.sql`update uploads set created_at = now() - interval '25 hours' where name in ${t.db.sql([nameOf(abandoned), nameOf(sent)])}`;
    expect(await sweepUnattachedUploads(t.deps)).toBeGreaterThanOrEqual(1);

    expect(await where(hers, abandoned)).toEqual({ row: null, stored: false, link: 404 });
    expect(await where(hers, young)).toEqual({ row: { attached: false }, stored: true, link: 200 });
    expect(await where(alices, sent)).toEqual({ row: { attached: true }, stored: true, link: 200 });
    // The message that carried it still shows it.
    const [message] = (await (await alice.request("GET", `/api/messages/${alices}`)).json()) as { attachments: string[] }[];
    expect(message!.attachments.map(nameOf)).toEqual([nameOf(sent)]);
  });
});
