/**
 * File save with a live sandbox (issue 9's Benchmark): PATCH /api/files/{fileId}/content on a project whose local
 * sandbox is attached, measured two ways in the same run, in alternating rounds:
 *   - "push":      the file service hands the bytes it holds to the sandbox sync (ServiceContext.sandboxSync);
 *   - "read-back": the hook removed from the app's context, so the change reaches the sandbox as before issue 9:
 *                  the file event's subscriber reads the new content back from storage and writes it in.
 * For each save: the PATCH round trip, the `file.updated` event at a WebSocket client, when the new bytes are in
 * the sandbox, and the storage operations the save cost (issue 20's Benchmark: every put, get and delete on the
 * app's one store, counted by a wrapper, for the PATCH, the user version it takes and the sandbox watcher's echo;
 * 4 when the file service wrote a per-file object and the version read it back to store it as a blob, 1 when
 * the file service stores the blob itself and records its hash). The real server pieces (startParts + serveHttp) run in
 * this process on a temp DATA_DIR with embedded PGlite; sign-in is emulator mode with minted tokens. Needs root
 * and the local sandbox's packages.
 *
 *   bun bench/file-save-sync.ts [--saves 100] [--rounds 4]
 */
import { grantedAccess } from "../api/src/test/access";
import { parseArgs } from "node:util";
import { startBenchApp } from "./support/bench-app.ts";
import { requireLocalSandboxes } from "./support/local-sandboxes.ts";
import { subscribeToProject } from "./support/project-socket.ts";
import { loadLine, ms as msIn, nearestRank as pick, sortedCopy } from "./support/stats.ts";

const { values: opts } = parseArgs({ options: { saves: { type: "string", default: "100" }, rounds: { type: "string", default: "4" } } });
const SAVES = Number(opts.saves);
const ROUNDS = Number(opts.rounds);

await requireLocalSandboxes();

const ms = (n: number) => msIn(n, 2);

console.log(`load average before: ${loadLine()}\n`);

const app = await startBenchApp("bench-save-", { SANDBOX_IDLE_MINUTES: "30" });
const { api, parts, uid } = app;

// Storage operations, counted on the one store every part of the app shares.
const storageOps = { put: 0, get: 0, delete: 0 };
const store = parts.deps.store;
const get = store.get.bind(store);
const getStream = store.getStream.bind(store);
const put = store.put.bind(store);
const del = store.delete.bind(store);
const deletePrefix = store.deletePrefix.bind(store);
store.get = (key) => (storageOps.get++, get(key));
store.getStream = (key) => (storageOps.get++, getStream(key));
store.put = (key, body, type) => (storageOps.put++, put(key, body, type));
store.delete = (key) => (storageOps.delete++, del(key));
store.deletePrefix = (prefix) => (storageOps.delete++, deletePrefix(prefix));
const opsNow = () => ({ ...storageOps });
const hook = parts.deps.sandboxSync;
if (!hook) throw new Error("startParts gave the app no sandbox sync hook");

type Ops = typeof storageOps;
type Sample = { patch: number; event: number; sandbox: number; inSandboxAtAnswer: boolean; ops: Ops };
const results: Record<"push" | "read-back", Sample[]> = { push: [], "read-back": [] };

try {
  const projectId = await app.project("save-sync");
  const file = await api<{ id: string }>("POST", `/api/files/${projectId}`, { path: "src/App.tsx", content: "start\n" });
  const sandbox = await parts.deps.sandboxes.ensure(grantedAccess(uid, projectId));

  let onUpdated: ((size: number, at: number) => void) | null = null;
  const ws = await subscribeToProject(`ws://127.0.0.1:${app.port}/api/ws`, app.token, projectId, (message, at) => {
    if (message.type === "file.updated") onUpdated?.(message.file.size, at);
  });

  let n = 0;
  async function saveOnce(): Promise<Sample> {
    const content = `export const n = ${++n}; // ${"x".repeat(200)}\n`;
    const expected = new TextEncoder().encode(content);
    const opsBefore = opsNow();
    const event = new Promise<number>((resolve) => (onUpdated = (size, at) => size === expected.length && resolve(at)));
    const started = performance.now();
    await api("PATCH", `/api/files/${file.id}/content`, { content });
    const answered = performance.now();
    const same = (bytes: Uint8Array | null) => bytes !== null && Buffer.from(bytes).equals(Buffer.from(expected));
    const inSandboxAtAnswer = same(await sandbox.files.read("src/App.tsx"));
    let inSandbox = inSandboxAtAnswer ? answered : Number.NaN;
    while (Number.isNaN(inSandbox)) {
      if (performance.now() - started > 10_000) throw new Error("the saved content never reached the sandbox");
      await Bun.sleep(1);
      if (same(await sandbox.files.read("src/App.tsx"))) inSandbox = performance.now();
    }
    const eventAt = await Promise.race([event, Bun.sleep(10_000).then(() => Number.NaN)]);
    if (Number.isNaN(eventAt)) throw new Error("no file.updated within 10 s");
    await Bun.sleep(120); // past the watcher's debounce, so its echo (and any storage read it costs) belongs to this save
    return {
      patch: answered - started,
      event: eventAt - started,
      sandbox: inSandbox - started,
      inSandboxAtAnswer,
      ops: { put: storageOps.put - opsBefore.put, get: storageOps.get - opsBefore.get, delete: storageOps.delete - opsBefore.delete },
    };
  }

  const modes = ["read-back", "push"] as const;
  const use = (mode: (typeof modes)[number]) => {
    parts.deps.sandboxSync = mode === "push" ? hook : undefined;
  };
  for (const mode of modes) {
    use(mode);
    for (let i = 0; i < 10; i++) await saveOnce(); // warm-up
  }
  const perRound = Math.ceil(SAVES / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? modes : ([...modes].reverse() as (typeof modes)[number][])) {
      use(mode);
      for (let i = 0; i < perRound; i++) results[mode].push(await saveOnce());
    }
  }
  use("push");
  ws.close();

  console.log(`PATCH /api/files/{id}/content with the project's local sandbox attached: ${perRound * ROUNDS} saves per way, ${ROUNDS} alternating rounds`);
  for (const mode of modes) {
    const samples = results[mode];
    const line = (label: string, values: number[]) => {
      const sorted = sortedCopy(values);
      return `    ${label.padEnd(36)} p50 ${ms(pick(sorted, 0.5)).padStart(9)}   p99 ${ms(pick(sorted, 0.99)).padStart(9)}`;
    };
    const mean = (op: keyof Ops) => samples.reduce((sum, s) => sum + s.ops[op], 0) / samples.length;
    const total = mean("put") + mean("get") + mean("delete");
    const atAnswer = samples.filter((s) => s.inSandboxAtAnswer).length;
    console.log(`  ${mode === "push" ? "after  (push from the bytes in hand)" : "before (read back from storage)"}:`);
    console.log(
      line(
        "save → 'file.updated' at WebSocket",
        samples.map((s) => s.event),
      ),
    );
    console.log(
      line(
        "save → bytes in the sandbox",
        samples.map((s) => s.sandbox),
      ),
    );
    console.log(
      line(
        "PATCH round trip",
        samples.map((s) => s.patch),
      ),
    );
    console.log(`    in the sandbox when the PATCH answered: ${atAnswer}/${samples.length}`);
    console.log(
      `    storage operations per save: ${total.toFixed(2)} (put ${mean("put").toFixed(2)}, get ${mean("get").toFixed(2)}, delete ${mean("delete").toFixed(2)})`,
    );
  }
} finally {
  await app.close();
}
