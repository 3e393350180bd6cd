import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { VersionDetail, VersionDiff, VersionSummary } from "@shared/schemas/versions";
import JSZip from "jszip";
import { chatTestApp, readEvents } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { memoryProvider } from "../test/memory-provider";
import { testApp, type TestUser } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({ env: { MAX_FILES_PER_PROJECT: "50", MAX_PROJECT_BYTES: String(8 * 1024 * 1024) } });
}, 60_000);

const db = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
// Tests in one process share the database (and its record of stored blobs) but not their object stores:
// contents unique to this file keep another file's blobs from being taken for this store's.
const SALT = crypto.randomUUID();
const A1 = `const a = 1; // ${SALT}\n`;
const A2 = `const a = 2; // ${SALT}\n`;
const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;

async function newProject(u: TestUser): Promise<string> {
  return (await json<{ id: string }>(u.request("POST", "/api/projects", { name: "History" }))).id;
}
const writeFile = (u: TestUser, projectId: string, path: string, content: string) =>
  json<{ id: string }>(u.request("POST", `/api/files/${projectId}`, { path, content }));
const fileList = (u: TestUser, projectId: string) => json<{ id: string; path: string }[]>(u.request("GET", `/api/files/${projectId}`));

describe(`versions routes (${db})`, () => {
  test("save, list, read a manifest and a file, diff, restore", async () => {
    const alice = t.user("alice");
    const projectId = await newProject(alice);
    await writeFile(alice, projectId, "src/app.ts", A1);
    const saved = await alice.request("POST", `/api/projects/${projectId}/versions`, { label: "  Working app " });
    expect(saved.status).toBe(201);
    const version = (await saved.json()) as VersionSummary;
    expect(version).toMatchObject({ label: "Working app", source: "manual", filesChanged: 0, bytes: 0 });

    const app = (await fileList(alice, projectId)).find((f) => f.path === "src/app.ts")!;
    expect((await alice.request("PATCH", `/api/files/${app.id}/content`, { content: A2 })).status).toBe(200);
    await writeFile(alice, projectId, "src/extra.ts", `export {}; // ${SALT}\n`);

    const list = await json<VersionSummary[]>(alice.request("GET", `/api/projects/${projectId}/versions`));
    // The first save in Files and the two later edits are each coalesced into the 'user' version of their minute.
    expect(list.map((v) => [v.source, v.label, v.filesChanged])).toEqual([
      ["user", "Edited in Files", 2],
      ["manual", "Working app", 0],
      ["user", "Edited in Files", 1],
    ]);
    expect(Date.parse(list[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(list[1]!.createdAt));

    const detail = await json<VersionDetail>(alice.request("GET", `/api/projects/${projectId}/versions/${version.id}`));
    expect(detail.files.map((f) => [f.path, f.size, f.mode])).toEqual([["src/app.ts", A1.length, 0o644]]);
    const file = await alice.request("GET", `/api/projects/${projectId}/versions/${version.id}/files/src/app.ts`);
    expect(file.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await file.text()).toBe(A1);
    expect((await alice.request("GET", `/api/projects/${projectId}/versions/${version.id}/files/src/nope.ts`)).status).toBe(404);
    const current = await alice.request("GET", `/api/projects/${projectId}/versions/current/files/src/app.ts`);
    expect(await current.text()).toBe(A2);

    const diff = await json<VersionDiff>(alice.request("GET", `/api/projects/${projectId}/versions/${version.id}/diff/current?patch=1`));
    expect(diff.added.map((e) => e.path)).toEqual(["src/extra.ts"]);
    expect(diff.changed.map((e) => e.path)).toEqual(["src/app.ts"]);
    expect(diff.patches?.find((p) => p.path === "src/app.ts")?.patch).toContain(`-${A1}+${A2}`);

    const restored = await alice.request("POST", `/api/projects/${projectId}/versions/${version.id}/restore`);
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ written: 1, deleted: 1, version: { source: "restore", label: 'Restored "Working app"' } });
    const now = await fileList(alice, projectId);
    expect(now.map((f) => f.path)).toEqual(["src/app.ts"]);
    const content = await json<{ content: string }>(alice.request("GET", `/api/files/${projectId}/${now[0]!.id}`));
    expect(content.content).toBe(A1);
  });

  test("pages newest first with limit and before", async () => {
    const bob = t.user("bob");
    const projectId = await newProject(bob);
    for (let i = 0; i < 5; i++) await bob.request("POST", `/api/projects/${projectId}/versions`, { label: `v${i}` });
    const first = await bob.request("GET", `/api/projects/${projectId}/versions?limit=2`);
    const next = first.headers.get("x-next-before")!;
    expect(((await first.json()) as VersionSummary[]).map((v) => v.label)).toEqual(["v4", "v3"]);
    const second = await json<VersionSummary[]>(bob.request("GET", `/api/projects/${projectId}/versions?limit=2&before=${next}`));
    expect(second.map((v) => v.label)).toEqual(["v2", "v1"]);
    expect((await bob.request("GET", `/api/projects/${projectId}/versions?limit=0`)).status).toBe(400);
    expect((await bob.request("POST", `/api/projects/${projectId}/versions`, { label: "   " })).status).toBe(400);
  });

  test("another user's project and versions answer 404 on every route", async () => {
    const owner = t.user("owner");
    const other = t.user("other");
    const projectId = await newProject(owner);
    await writeFile(owner, projectId, "a.txt", `secret ${SALT}`);
    const version = await json<VersionSummary>(owner.request("POST", `/api/projects/${projectId}/versions`, { label: "Mine" }));
    const otherProject = await newProject(other);
    const base = `/api/projects/${projectId}/versions`;
    for (const [method, path] of [
      ["GET", base],
      ["POST", base],
      ["GET", `${base}/${version.id}`],
      ["GET", `${base}/${version.id}/files/a.txt`],
      ["GET", `${base}/current/files/a.txt`],
      ["GET", `${base}/${version.id}/diff/current`],
      ["POST", `${base}/${version.id}/restore`],
      ["POST", `/api/projects/${otherProject}/versions/${version.id}/restore`],
      ["GET", `/api/projects/${otherProject}/versions/${version.id}`],
    ] as const) {
      const res = await other.request(method, path, method === "POST" ? { label: "x" } : undefined);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
  });

  test("restore during an agent run answers 409 with a message", async () => {
    const alice = t.user("alice");
    const projectId = await newProject(alice);
    const version = await json<VersionSummary>(alice.request("POST", `/api/projects/${projectId}/versions`, { label: "Empty" }));
    await t.db.sql`insert into messages (id, project_id, role, content, status) values (${crypto.randomUUID()}, ${projectId}, 'assistant', '', 'running')`;
    const res = await alice.request("POST", `/api/projects/${projectId}/versions/${version.id}/restore`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: "conflict", error: expect.stringContaining("agent is working") });
  });

  test("a restore restarts the project's app on the restored files", async () => {
    // A sandbox held in memory: its process table records the app's (re)starts without a real isolation layer.
    const withSandboxes = await testApp({ provider: memoryProvider({ startMs: 0 }).provider });
    const alice = withSandboxes.user("alice");
    const projectId = (await json<{ id: string }>(alice.request("POST", "/api/projects", { name: "Restarts" }))).id;
    await json(alice.request("POST", `/api/files/${projectId}`, { path: "server.js", content: A1 }));
    await withSandboxes.db.sql`update projects set workflow_command = 'node server.js' where id = ${projectId}`;
    expect((await alice.request("POST", `/api/sandbox/${projectId}/run-workflow`)).status).toBe(200);
    const app = async () =>
      (await json<{ name: string; command: string; startedAt: string }[]>(alice.request("GET", `/api/sandbox/${projectId}/processes`))).find(
        (p) => p.name === "app",
      )!;
    const before = await app();
    expect(before.command).toBe("node server.js");

    const version = await json<VersionSummary>(alice.request("POST", `/api/projects/${projectId}/versions`, { label: "Before the change" }));
    await Bun.sleep(5); // startedAt has millisecond resolution
    await json(alice.request("POST", `/api/files/${projectId}`, { path: "extra.js", content: A2 }));
    expect((await alice.request("POST", `/api/projects/${projectId}/versions/${version.id}/restore`)).status).toBe(200);
    const after = await app();
    expect(after.command).toBe("node server.js");
    expect(Date.parse(after.startedAt)).toBeGreaterThan(Date.parse(before.startedAt));
  });

  test("a deleted project's versions are gone", async () => {
    const alice = t.user("alice");
    const projectId = await newProject(alice);
    const version = await json<VersionSummary>(alice.request("POST", `/api/projects/${projectId}/versions`, { label: "Doomed" }));
    expect((await alice.request("DELETE", `/api/projects/${projectId}`)).status).toBeLessThan(300);
    expect((await alice.request("GET", `/api/projects/${projectId}/versions/${version.id}`)).status).toBe(404);
    expect(await t.db.sql`select 1 from versions where id = ${version.id}`).toHaveLength(0);
  });
});

describe(`POST /api/projects/import (${db})`, () => {
  const upload = (u: TestUser, zip: Uint8Array, fileName = "my-app.zip", name?: string) => {
    const form = new FormData();
    form.append("file", new File([zip as Uint8Array<ArrayBuffer>], fileName, { type: "application/zip" }));
    if (name !== undefined) form.append("name", name);
    return u.request("POST", "/api/projects/import", form);
  };
  const zipOf = async (add: (zip: JSZip) => void) => {
    const zip = new JSZip();
    add(zip);
    return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", platform: "UNIX" });
  };
  const projectCount = async (u: TestUser) => (await json<unknown[]>(u.request("GET", "/api/projects"))).length;

  test("imports text and binary files, skips node_modules and .git, strips the common folder, and is the first version", async () => {
    const alice = t.user("alice");
    const png = Uint8Array.from([...Array.from({ length: 300 }, (_, i) => (i * 31) % 256), ...new TextEncoder().encode(SALT)]);
    const zip = await zipOf((z) => {
      z.file("my-app/package.json", `{ "name": "my-app", "salt": "${SALT}" }\n`);
      z.file("my-app/src/main.ts", `console.log('${SALT}');\n`);
      z.file("my-app/public/logo.png", png);
      z.file("my-app/node_modules/left-pad/index.js", "module.exports = 1;\n");
      z.file("my-app/.git/HEAD", "ref: refs/heads/main\n");
      z.folder("my-app/empty");
    });
    const res = await upload(alice, zip);
    expect(res.status).toBe(201);
    const project = (await res.json()) as { id: string; name: string };
    expect(project.name).toBe("my-app");
    const files = await fileList(alice, project.id);
    expect(files.map((f) => f.path).sort()).toEqual(["package.json", "public/logo.png", "src/main.ts"]);
    const logo = await json<{ binary: boolean }>(alice.request("GET", `/api/files/${project.id}/${files.find((f) => f.path === "public/logo.png")!.id}`));
    expect(logo.binary).toBe(true);

    const versions = await json<VersionSummary[]>(alice.request("GET", `/api/projects/${project.id}/versions`));
    expect(versions.map((v) => [v.source, v.label, v.filesChanged])).toEqual([["manual", "Imported from my-app.zip", 3]]);
    const stored = await alice.request("GET", `/api/projects/${project.id}/versions/${versions[0]!.id}/files/public/logo.png`);
    expect(stored.headers.get("content-type")).toBe("application/octet-stream");
    expect(new Uint8Array(await stored.arrayBuffer())).toEqual(png);

    const named = await upload(alice, zip, "x.zip", "  Given name ");
    expect(((await named.json()) as { name: string }).name).toBe("Given name");
  });

  test("each bad zip is refused with a message and writes nothing", async () => {
    const alice = t.user("alice");
    const zeros = new Uint8Array(4 * 1024 * 1024);
    const cases: [string, Uint8Array | Promise<Uint8Array>, number, string][] = [
      ["not a zip", new TextEncoder().encode("plain text"), 400, "not a readable .zip"],
      ["parent path", zipOf((z) => z.file("../evil.txt", "x")), 400, "contains '..'"],
      ["absolute path", zipOf((z) => z.file("/etc/passwd", "x")), 400, "absolute path"],
      ["symbolic link", zipOf((z) => z.file("link", "/etc/passwd", { unixPermissions: 0o120777 })), 400, "symbolic link"],
      ["control character", zipOf((z) => z.file("bad\u0001name.txt", "x")), 400, "control character"],
      ["zip bomb", zipOf((z) => z.file("zeros.bin", zeros)), 400, "zip bomb"],
      ["lying sizes", lyingZip(), 400, "inflates to more than the zip says"],
      ["too many files", zipOf((z) => Array.from({ length: 51 }, (_, i) => z.file(`f${i}.txt`, String(i)))), 413, "at most 50"],
      ["file too large", zipOf((z) => z.file("big.bin", randomBytes(5 * 1024 * 1024 + 1))), 413, "a file may be at most"],
      // Text (random base64) compresses a little, so the upload stays under the body limit while it inflates past the project's.
      [
        "project too large",
        zipOf((z) => [1, 2, 3].forEach((i) => z.file(`part${i}.txt`, Buffer.from(randomBytes(2.25 * 1024 * 1024)).toString("base64")))),
        413,
        "a project may hold at most",
      ],
      ["nothing to import", zipOf((z) => z.file("node_modules/x.js", "1")), 400, "no files"],
    ];
    const before = await projectCount(alice);
    for (const [label, zip, status, message] of cases) {
      const res = await upload(alice, await zip);
      const body = (await res.json()) as { error: string };
      expect([label, res.status, body.error]).toEqual([label, status, expect.stringContaining(message)]);
    }
    expect(await projectCount(alice)).toBe(before);
    expect((await alice.request("POST", "/api/projects/import", new FormData())).status).toBe(400);
  });
});

function randomBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(length, i + 65536)));
  return out;
}

/** A zip whose entry says it inflates to 1,000 bytes but inflates to 2 MB (both headers altered). */
async function lyingZip(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("liar.txt", "y".repeat(2 * 1024 * 1024));
  const bytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + 4 <= bytes.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50) view.setUint32(i + 22, 1000, true); // local header: uncompressed size
    if (signature === 0x02014b50) view.setUint32(i + 24, 1000, true); // central directory: uncompressed size
  }
  return bytes;
}

describe(`versions around agent runs (${db})`, () => {
  let model: FakeModelServer;
  let chat: Awaited<ReturnType<typeof chatTestApp>>;
  beforeAll(async () => {
    model = await startFakeModelServer();
    chat = await chatTestApp({ model, agent: { limits: { maxSteps: 4, contextTokens: 32_000 } } });
  }, 60_000);
  afterAll(async () => {
    await chat.close();
    await model.close();
  });

  test("a run that changes files is a version labelled with the message; restoring the one before undoes it", async () => {
    const alice = chat.user("alice");
    const projectId = await alice.project();
    await alice.request("POST", `/api/files/${projectId}`, { path: "index.html", content: `<h1>Old ${SALT}</h1>\n` });

    model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "index.html", content: `<h1>New ${SALT}</h1>\n` } }]), turn.text("Done."));
    const events = await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "Change the heading" }));
    const messageId = (events.at(-1) as { messageId: string }).messageId;

    model.enqueue(turn.text("It says New."));
    await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "What does it say?" }));

    const list = (await (await alice.request("GET", `/api/projects/${projectId}/versions`)).json()) as VersionSummary[];
    expect(list.map((v) => [v.source, v.label, v.messageId ?? null])).toEqual([
      ["agent", "Change the heading", messageId],
      ["user", "Edited in Files", null],
    ]);
    const undo = await alice.request("POST", `/api/projects/${projectId}/versions/${list[1]!.id}/restore`);
    expect(undo.status).toBe(200);
    const [file] = (await (await alice.request("GET", `/api/files/${projectId}`)).json()) as { id: string }[];
    const content = (await (await alice.request("GET", `/api/files/${projectId}/${file!.id}`)).json()) as { content: string };
    expect(content.content).toBe(`<h1>Old ${SALT}</h1>\n`);
  });
  test("before-message finds the files as a run found them, from its user message or its answer; 404 for others", async () => {
    const alice = chat.user("alice");
    const projectId = await alice.project();
    await alice.request("POST", `/api/files/${projectId}`, { path: "a.txt", content: `one ${SALT}` });
    const base = `/api/projects/${projectId}/versions`;
    const messages = async () => (await (await alice.request("GET", `/api/messages/${projectId}`)).json()) as { id: string; role: string }[];

    // A run that changes nothing: the state before it is the newest version taken before it was sent.
    model.enqueue(turn.text("Nothing to do."));
    await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "Just asking" }));
    // Two runs that change a.txt: the first finds the newest version already holding its starting files.
    model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: `two ${SALT}` } }]), turn.text("Two."));
    await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "Make it two" }));
    // A save in Files whose own version is missing (a version that cannot be taken is skipped): the next run
    // finds files no version holds, so it records them as "Before: …" first.
    const [file] = (await (await alice.request("GET", `/api/files/${projectId}`)).json()) as { id: string }[];
    await alice.request("PATCH", `/api/files/${file!.id}/content`, { content: `edited ${SALT}` });
    await chat.db.sql`delete from versions where id = (select id from versions where project_id = ${projectId} order by seq desc limit 1) and source = 'user'`;
    model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: `three ${SALT}` } }]), turn.text("Three."));
    await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "Make it three" }));

    const [ask, , two, twoAnswer, three, threeAnswer] = await messages();
    const labels: string[] = [];
    const before = async (id: string) => {
      const version = await json<VersionSummary>(alice.request("GET", `${base}/before-message/${id}`));
      labels.push(version.label);
      const res = await alice.request("GET", `${base}/${version.id}/files/a.txt`);
      return res.text();
    };
    expect(await before(ask!.id)).toBe(`one ${SALT}`);
    expect(await before(two!.id)).toBe(`one ${SALT}`);
    expect(await before(twoAnswer!.id)).toBe(`one ${SALT}`);
    expect(await before(three!.id)).toBe(`edited ${SALT}`);
    expect(await before(threeAnswer!.id)).toBe(`edited ${SALT}`);
    expect(labels).toEqual(["Edited in Files", "Edited in Files", "Edited in Files", "Before: Make it three", "Before: Make it three"]);

    const bob = chat.user("bob");
    expect((await bob.request("GET", `${base}/before-message/${two!.id}`)).status).toBe(404);
    expect((await alice.request("GET", `${base}/before-message/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await alice.request("GET", `${base}/before-message/not-a-uuid`)).status).toBe(404);
  });

  test("before-message of the first message, with no version before it, is 404 with a message", async () => {
    const alice = chat.user("alice");
    const projectId = await alice.project();
    model.enqueue(turn.text("Hello."));
    await readEvents(await alice.request("POST", "/api/messages/stream", { projectId, content: "Hi" }));
    const [hi] = (await (await alice.request("GET", `/api/messages/${projectId}`)).json()) as { id: string }[];
    const res = await alice.request("GET", `/api/projects/${projectId}/versions/before-message/${hi!.id}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain("before this message");
  });
});
