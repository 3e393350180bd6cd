/**
 * The storage ↔ sandbox sync on its own, with real PGlite and storage and an in-memory sandbox whose watcher
 * echoes every write (as the local provider's does). Evidence is counted storage reads, sandbox writes and
 * file events, never timing alone.
 */
import { grantedAccess, ownerFileAccess } from "../../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { PROCESS_STATUS } from "@shared/events/process-events";
import { createMemoryBus } from "../../events/memory-bus";
import type { BusEvent, EventBus } from "../../events/types";
import type { ObjectStore } from "../../storage/types";
import { memorySandbox } from "../../test/memory-sandbox";
import { testApp } from "../../test/test-app";
import type { ServiceContext } from "../context";
import { deleteProjectFile, listProjectFiles, readFileContent, renameProjectFile, saveFileContent, writeFileAtPath } from "../files";
import { createProject } from "../projects";
import { createUserEnsurer } from "../users";
import { createSandboxSync } from "./sync";

let t: Awaited<ReturnType<typeof testApp>>;
let ctx: ServiceContext;
let storageReads = 0;
const events: BusEvent[] = [];

beforeAll(async () => {
  t = await testApp();
  const store = t.deps.store;
  const counting: ObjectStore = {
    ...store,
    get: (key) => {
      storageReads++;
      return store.get(key);
    },
  };
  ctx = { sql: t.deps.sql, store: counting, logger: t.deps.logger, events: t.deps.events, config: t.deps.config };
  t.deps.events.subscribe((event) => events.push(event));
}, 60_000);

/** A signed-in user's new project, with a sync and an attached in-memory sandbox. */
async function setup(name: string) {
  const uid = `${name}-${crypto.randomUUID()}`;
  await createUserEnsurer(ctx)({ uid, email: null, name, picture: null });
  const project = await createProject(ctx, uid, { name });
  const sync = createSandboxSync(ctx);
  const box = memorySandbox();
  return { uid, projectId: project.id, sync, box, files: { ...ctx, sandboxSync: sync } satisfies ServiceContext };
}

const settle = () => Bun.sleep(250); // past the sync's 60 ms debounce, so any echo would have been handled
const eventsOf = (projectId: string) => events.filter((e) => e.projectId === projectId);

describe("sandbox sync", () => {
  test("attach writes every stored file into the sandbox", async () => {
    const s = await setup("attach");
    await writeFileAtPath(ctx, grantedAccess(s.uid, s.projectId), "a.txt", "A");
    await writeFileAtPath(ctx, grantedAccess(s.uid, s.projectId), "src/b.txt", "B");
    expect(await s.sync.attach(grantedAccess(s.uid, s.projectId), s.box.sandbox)).toEqual({ filesSynced: 2 });
    expect([s.box.text("a.txt"), s.box.text("src/b.txt")]).toEqual(["A", "B"]);
    expect(s.sync.get(s.projectId)?.sandbox).toBe(s.box.sandbox);
    s.sync.stop();
    expect(s.sync.count()).toBe(0);
  });

  test("a write through the file service is in the sandbox when it returns, from the bytes in hand; its echo is dropped", async () => {
    const s = await setup("push");
    await s.sync.attach(grantedAccess(s.uid, s.projectId), s.box.sandbox);
    const readsBefore = storageReads;

    const { file } = await writeFileAtPath(s.files, grantedAccess(s.uid, s.projectId), "app.js", "v1");
    expect(s.box.text("app.js")).toBe("v1"); // awaited: a command right after sees it
    await saveFileContent(s.files, await ownerFileAccess(s.files, s.uid, file.id), file.id, "v2");
    expect(s.box.text("app.js")).toBe("v2");
    await settle();

    expect(storageReads).toBe(readsBefore); // no read-back, not even for the watcher's echo
    expect(s.box.writes.get("app.js")).toBe(2); // once per save, not twice
    const seen = eventsOf(s.projectId);
    expect(seen.map((e) => [e.type, e.origin])).toEqual([
      ["file.created", "api"],
      ["file.updated", "api"],
    ]); // the echo made no "sandbox" event
    expect(seen.every((e) => e.pushedBy === s.sync.id)).toBe(true);
    s.sync.stop();
  });

  test("renames and deletes through the file service reach the sandbox before they return", async () => {
    const s = await setup("move");
    await s.sync.attach(grantedAccess(s.uid, s.projectId), s.box.sandbox);
    const { file } = await writeFileAtPath(s.files, grantedAccess(s.uid, s.projectId), "old.txt", "x");
    await renameProjectFile(s.files, await ownerFileAccess(s.files, s.uid, file.id), file.id, "docs/new.txt");
    expect([s.box.text("old.txt"), s.box.text("docs/new.txt")]).toEqual([null, "x"]);
    await deleteProjectFile(s.files, await ownerFileAccess(s.files, s.uid, file.id), file.id);
    expect(s.box.files.size).toBe(0);
    await settle();
    expect(await listProjectFiles(ctx, grantedAccess(s.uid, s.projectId))).toEqual([]); // the sandbox's remove events wrote nothing back
    s.sync.stop();
  });

  test("a change made on another instance arrives as a file event and is read from storage", async () => {
    const s = await setup("other");
    await s.sync.attach(grantedAccess(s.uid, s.projectId), s.box.sandbox);
    const otherInstance = createSandboxSync(ctx); // shares the bus, has no sandbox of this project
    const readsBefore = storageReads;
    await writeFileAtPath({ ...ctx, sandboxSync: otherInstance }, grantedAccess(s.uid, s.projectId), "remote.txt", "from elsewhere");
    for (let i = 0; i < 40 && s.box.text("remote.txt") === null; i++) await Bun.sleep(25);
    expect(s.box.text("remote.txt")).toBe("from elsewhere");
    expect(storageReads).toBeGreaterThan(readsBefore);
    otherInstance.stop();
    s.sync.stop();
  });

  test("when the bus comes back from a lost connection, the sandbox catches up from storage and says where its processes stand", async () => {
    const s = await setup("resync");
    // The sync's bus, with the reconnect's signal in the test's hand (postgres-bus.test.ts cuts a real one).
    const comebacks = new Set<() => void>();
    const bus: EventBus = { ...ctx.events, onResync: (handler) => (comebacks.add(handler), () => void comebacks.delete(handler)) };
    const sync = createSandboxSync({ ...ctx, events: bus });
    const access = grantedAccess(s.uid, s.projectId);
    await writeFileAtPath(ctx, access, "kept.txt", "same");
    await writeFileAtPath(ctx, access, "changed.txt", "old");
    const { file: gone } = await writeFileAtPath(ctx, access, "gone.txt", "bye");
    await sync.attach(access, s.box.sandbox);
    await s.box.sandbox.processes.start("app", "npm run dev");
    // Changes made elsewhere whose events were lost: this bus reaches no sync.
    const elsewhere: ServiceContext = { ...ctx, events: createMemoryBus() };
    await writeFileAtPath(elsewhere, access, "changed.txt", "new");
    await writeFileAtPath(elsewhere, access, "added.txt", "hello");
    await deleteProjectFile(elsewhere, access, gone.id);
    await settle();
    expect([s.box.text("changed.txt"), s.box.text("added.txt"), s.box.text("gone.txt")]).toEqual(["old", null, "bye"]);
    const writesBefore = s.box.writes.get("kept.txt");
    const statusesBefore = eventsOf(s.projectId).filter((e) => e.type === PROCESS_STATUS).length;

    for (const comeback of comebacks) comeback();
    for (let i = 0; i < 40 && s.box.text("gone.txt") !== null; i++) await Bun.sleep(25);
    await settle();
    expect([s.box.text("changed.txt"), s.box.text("added.txt"), s.box.text("gone.txt"), s.box.text("kept.txt")]).toEqual(["new", "hello", null, "same"]);
    expect(s.box.writes.get("kept.txt")).toBe(writesBefore); // unchanged files are not written again
    const statuses = eventsOf(s.projectId).filter((e) => e.type === PROCESS_STATUS);
    expect(statuses.length).toBe(statusesBefore + 1);
    expect(statuses.at(-1)).toMatchObject({ process: { name: "app", command: "npm run dev" }, origin: "sandbox" });
    // What it wrote in is not echoed back to storage as a change from the sandbox.
    expect(eventsOf(s.projectId).filter((e) => e.origin === "sandbox" && e.type.startsWith("file."))).toEqual([]);
    sync.stop();
    expect(comebacks.size).toBe(0);
  });

  test("files a command makes or removes go back to storage once, as origin 'sandbox'; ignored folders and terminal noise stay out", async () => {
    const s = await setup("back");
    await s.sync.attach(grantedAccess(s.uid, s.projectId), s.box.sandbox);
    s.box.inside.write("src/made.txt", "made inside");
    s.box.inside.write("node_modules/x/index.js", "dep");
    s.box.inside.write("out/index.html", "a build's output, which publishing reads from the sandbox");
    // What a terminal session leaves in HOME (the project folder): histories and tool caches.
    s.box.inside.write(".bash_history", "ls\nnpm test\n");
    s.box.inside.write(".python_history", "import os\n");
    s.box.inside.write(".node_repl_history", "1+1\n");
    s.box.inside.write(".npm/_logs/debug-0.log", "npm log");
    s.box.inside.write(".cache/pip/selfcheck.json", "{}");
    await settle();
    const [made] = await listProjectFiles(ctx, grantedAccess(s.uid, s.projectId));
    expect(made?.path).toBe("src/made.txt");
    expect((await readFileContent(ctx, grantedAccess(s.uid, s.projectId), made!.id)).content).toBe("made inside");
    expect(eventsOf(s.projectId).map((e) => [e.type, e.origin])).toEqual([["file.created", "sandbox"]]);
    expect(s.box.writes.size).toBe(0); // nothing was pushed back into the sandbox

    s.box.inside.remove("src/made.txt");
    await settle();
    expect(await listProjectFiles(ctx, grantedAccess(s.uid, s.projectId))).toEqual([]);
    s.sync.stop();
  });

  test("without an attached sandbox the hook does nothing, and a detached sandbox is no longer written", async () => {
    const s = await setup("none");
    await writeFileAtPath(s.files, grantedAccess(s.uid, s.projectId), "a.txt", "1");
    expect(s.box.files.size).toBe(0);
    await s.sync.attach(grantedAccess(s.uid, s.projectId), s.box.sandbox);
    s.sync.detach(s.projectId);
    await writeFileAtPath(s.files, grantedAccess(s.uid, s.projectId), "b.txt", "2");
    expect(s.box.text("b.txt")).toBeNull();
    s.sync.stop();
  });
});
