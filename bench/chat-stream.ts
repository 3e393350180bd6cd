/**
 * `bun bench/chat-stream.ts`: the chat stream's cost, in one run against the scripted model.
 * 1. Latency the server adds per streamed token: the model stamps each chunk with the time it wrote it; the
 *    client (an SSE reader like the browser's) notes when it arrives. Measured once straight from the model
 *    (the baseline hop) and once through the app (model → openai SDK → agent loop → run → SSE), so
 *    "added" = through the app − direct. Goal: p99 added under 2 ms.
 * 2. N concurrent runs (default 100), each a tool call (write_file) and a streamed answer, all through the
 *    real app and database: every run must end `complete` and be saved; prints runs/s, events/s, peak RSS.
 * Model, app and client are separate processes (the client is this one).
 *
 * Options: --tokens N (per latency run, default 400), --interval-ms N (between model chunks, default 2),
 *          --latency-runs N (rounds, default 7; "added" is the median round's difference), --runs N (concurrent runs, default 100), --work-tokens N (default 50).
 * Database: a fresh database on TEST_DATABASE_URL or DATABASE_URL when set, else embedded PGlite
 * (DATABASE_POOL_MAX, when set, is passed to the app).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { redactUrl } from "../api/src/lib/config";
import { emulatorToken } from "../api/src/test/emulator-tokens";
import { createBenchDb, type BenchDb } from "./support/bench-db";
import { startChildServer } from "./support/child-server";
import { runBench, type Cleanups } from "./support/run-bench";
import { atFraction, ms as msIn, sortedCopy, upperMedian as median, verdict } from "./support/stats";

const { values: opts } = parseArgs({
  options: {
    tokens: { type: "string", default: "400" },
    "interval-ms": { type: "string", default: "2" },
    "latency-runs": { type: "string", default: "7" },
    runs: { type: "string", default: "100" },
    "work-tokens": { type: "string", default: "50" },
  },
});
const TOKENS = Number(opts.tokens);
const INTERVAL = Number(opts["interval-ms"]);
const LATENCY_RUNS = Number(opts["latency-runs"]);
const RUNS = Number(opts.runs);
const WORK_TOKENS = Number(opts["work-tokens"]);
const adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || null;
const FIREBASE_PROJECT = "demo-bench"; // as servers/serve-chat-app.ts signs in

const now = () => performance.timeOrigin + performance.now();
const STAMP = /⟨(\d+\.\d+)⟩/g;

/** Reads an SSE body; calls `onData` with each `data:` payload and the time its bytes arrived. */
async function readSse(res: Response, onData: (data: string, at: number) => void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const at = now();
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of block.split("\n")) if (line.startsWith("data: ")) onData(line.slice(6), at);
    }
  }
}

const summary = (xs: number[]) => {
  const s = sortedCopy(xs);
  return { n: s.length, p50: atFraction(s, 0.5), p99: atFraction(s, 0.99), max: s.at(-1) ?? NaN };
};
const ms = (x: number) => msIn(x, 3);

function rss(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : NaN;
}
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

function client(origin: string, name: string) {
  const uid = `${name}-${crypto.randomUUID()}`;
  const token = emulatorToken(FIREBASE_PROJECT, { uid, email: `${name}@example.com`, name });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    call,
    async project(): Promise<string> {
      const res = await call("POST", "/api/projects", { name: "Bench" });
      if (!res.ok) throw new Error(`create project: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
  };
}

async function direct(baseUrl: string, content: string, samples: number[]) {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content }] }),
  });
  await readSse(res, (data, at) => {
    for (const m of data.matchAll(STAMP)) samples.push(at - Number(m[1]));
  });
}

async function throughApp(user: ReturnType<typeof client>, projectId: string, content: string, samples?: number[]) {
  const res = await user.call("POST", "/api/messages/stream", { projectId, content });
  if (!res.ok) throw new Error(`send: ${res.status} ${await res.text()}`);
  let status = "none";
  let events = 0;
  let error: string | null = null;
  await readSse(res, (data, at) => {
    events++;
    const event = JSON.parse(data) as { type: string; content?: string; status?: string; message?: string };
    if (event.type === "chunk" && samples) for (const m of (event.content ?? "").matchAll(STAMP)) samples.push(at - Number(m[1]));
    if (event.type === "done") status = event.status ?? "none";
    if (event.type === "error") error = event.message ?? "error";
  });
  return { status, events, error };
}

async function main(cleanups: Cleanups) {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/^processor/gm)?.length ?? 0;
  let db: BenchDb | null = null;
  if (adminUrl) {
    db = await createBenchDb(adminUrl);
    cleanups.push(() => db!.drop());
  }
  console.log(
    `chat-stream bench: ${cpu} CPUs, bun ${Bun.version}, database ${db ? `PostgreSQL (fresh database on ${redactUrl(adminUrl!)})` : "embedded PGlite"}`,
  );

  const model = await startChildServer<{ baseUrl: string }>("chat-fake-model.ts", undefined, cleanups);
  const app = await startChildServer<{ port: number }>("serve-chat-app.ts", { modelBaseUrl: model.info.baseUrl, databaseUrl: db?.url ?? null }, cleanups);
  const origin = `http://127.0.0.1:${app.info.port}`;

  // Warm-up (JIT, connection pools), not measured.
  const warm = client(origin, "warm");
  const warmProject = await warm.project();
  for (let i = 0; i < 3; i++) {
    await direct(model.info.baseUrl, `latency 100 ${INTERVAL}`, []);
    await throughApp(warm, warmProject, `latency 100 ${INTERVAL}`);
  }

  // 1. Latency per streamed token. Direct and through-app rounds alternate, so both meet the same
  // background noise (other processes on a shared 2-core machine show up as multi-ms stalls in either).
  const directSamples: number[] = [];
  const appSamples: number[] = [];
  const rounds: { direct: ReturnType<typeof summary>; app: ReturnType<typeof summary> }[] = [];
  const user = client(origin, "latency");
  const projectId = await user.project();
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const dr: number[] = [];
    const ar: number[] = [];
    await direct(model.info.baseUrl, `latency ${TOKENS} ${INTERVAL}`, dr);
    const r = await throughApp(user, projectId, `latency ${TOKENS} ${INTERVAL}`, ar);
    if (r.status !== "complete") throw new Error(`latency run ended ${r.status}: ${r.error}`);
    directSamples.push(...dr);
    appSamples.push(...ar);
    rounds.push({ direct: summary(dr), app: summary(ar) });
  }
  const d = summary(directSamples);
  const a = summary(appSamples);
  const addedP50 = median(rounds.map((r) => r.app.p50 - r.direct.p50));
  const addedP99 = median(rounds.map((r) => r.app.p99 - r.direct.p99));
  console.log(`\n1. Latency per streamed token (${LATENCY_RUNS} rounds × ${TOKENS} chunks, one every ${INTERVAL} ms)`);
  console.log(`   model → client directly:        p50 ${ms(d.p50)}  p99 ${ms(d.p99)}  max ${ms(d.max)}  (n=${d.n})`);
  console.log(`   model → app → SSE client:       p50 ${ms(a.p50)}  p99 ${ms(a.p99)}  max ${ms(a.max)}  (n=${a.n})`);
  console.log(`   per round (direct / app p99):   ${rounds.map((r) => `${r.direct.p99.toFixed(2)}/${r.app.p99.toFixed(2)}`).join("  ")}`);
  console.log(`   added by the server (median of rounds): p50 ${ms(addedP50)}  p99 ${ms(addedP99)}   goal: p99 < 2 ms → ${verdict(addedP99 < 2)}`);

  // 2. Concurrent runs.
  const users = Array.from({ length: Math.ceil(RUNS / 10) }, (_, i) => client(origin, `load${i}`));
  const projects = await Promise.all(
    Array.from({ length: RUNS }, (_, i) => users[i % users.length]!.project().then((id) => ({ user: users[i % users.length]!, id }))),
  );
  const rssBefore = rss(app.pid, "VmRSS");
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rss(app.pid, "VmRSS"))), 20);
  const started = performance.now();
  const results = await Promise.all(
    projects.map((p) => throughApp(p.user, p.id, `work ${WORK_TOKENS}`).catch((e) => ({ status: "crashed", events: 0, error: String(e) }))),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rss(app.pid, "VmRSS"));

  const complete = results.filter((r) => r.status === "complete").length;
  const events = results.reduce((n, r) => n + r.events, 0);
  let saved = 0;
  for (const p of projects) {
    const list = (await (await p.user.call("GET", `/api/messages/${p.id}`)).json()) as { role: string; status?: string; toolCalls: unknown[] }[];
    if (list.length === 2 && list[1]!.status === "complete" && list[1]!.toolCalls.length === 1) saved++;
  }
  console.log(`\n2. ${RUNS} concurrent runs (write_file + ${WORK_TOKENS}-chunk answer each)`);
  console.log(`   completed: ${complete}/${RUNS} streams ended 'complete'; ${saved}/${RUNS} saved with their tool call`);
  if (complete < RUNS)
    console.log(
      `   failures: ${results
        .filter((r) => r.status !== "complete")
        .slice(0, 3)
        .map((r) => `${r.status}: ${r.error}`)
        .join(" | ")}`,
    );
  console.log(`   wall time ${seconds.toFixed(2)} s → ${(RUNS / seconds).toFixed(1)} runs/s, ${(events / seconds).toFixed(0)} SSE events/s`);
  console.log(`   app RSS: ${mb(rssBefore)} before, ${mb(peak)} peak during the runs (process high-water mark ${mb(rss(app.pid, "VmHWM"))})`);
  return complete === RUNS && saved === RUNS ? 0 : 1;
}

await runBench(main);
