/**
 * How many local sandboxes fit on this machine (issue 24's sizing figures): memory per idle sandbox (started,
 * its project synced, nothing running) and per active one (the react template applied: Vite's dev server
 * running and its preview answered once), measured two ways:
 *   - the sandbox's own cgroup: what its processes hold and cannot give back (memory.stat: rss and shmem on
 *     v1, anon and shmem on v2; tmpfs /tmp included, reclaimable page cache not), and
 *   - plus what each sandbox has outside its cgroup: its slirp4netns network process (PSS).
 * Then how many fit: (MemTotal − 2 GiB kept for the API, PostgreSQL and the kernel) ÷ that sum. Both are read
 * per process and per cgroup, not from the host's free memory, so other work on the machine does not skew them.
 * The real server pieces run in this process on a temp DATA_DIR (embedded PGlite), as bench/sandbox-preview.ts.
 * Needs root, the local sandbox's packages and the npm registry (the template cache fills once).
 *
 *   bun bench/sandbox-density.ts [--idle 6] [--active 3]
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { detectCgroups } from "../api/src/sandbox/local/cgroups.ts";
import { loadTemplate } from "../api/src/services/sandboxes/templates.ts";
import { startBenchApp, untilPreviewAnswers } from "./support/bench-app.ts";
import { requireLocalSandboxes } from "./support/local-sandboxes.ts";
import { loadLine, median } from "./support/stats.ts";

const { values: opts } = parseArgs({ options: { idle: { type: "string", default: "6" }, active: { type: "string", default: "3" } } });
const IDLE = Number(opts.idle);
const ACTIVE = Number(opts.active);
const KEPT_MB = 2048;

await requireLocalSandboxes();

const meminfo = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync("/proc/meminfo", "utf8"))![1]) / 1024;
const mb = (n: number) => `${n.toFixed(0)} MB`;

/** Each running sandbox's held memory in MB (anonymous + shared/tmpfs), by its cgroup folder. */
function cgroupMemory(): Map<string, number> {
  const mode = detectCgroups();
  const out = new Map<string, number>();
  const parent = mode.kind === "v2" ? mode.parent : mode.kind === "v1" ? mode.dirs.memory : undefined;
  if (!parent) return out;
  const fields = mode.kind === "v2" ? ["anon", "shmem"] : ["total_rss", "total_shmem"];
  for (const name of fs.readdirSync(parent)) {
    if (!name.startsWith("app-sandbox-")) continue;
    try {
      const stat = fs.readFileSync(path.join(parent, name, "memory.stat"), "utf8");
      const bytes = fields.reduce((sum, f) => sum + Number(new RegExp(`^${f} (\\d+)$`, "m").exec(stat)?.[1] ?? 0), 0);
      out.set(name, bytes / 1024 / 1024);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** PSS of every slirp4netns process in MB (one per running sandbox), from smaps_rollup. */
function slirpMemory(): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "slirp4netns") continue;
      out.push(Number(/^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) / 1024);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The sandbox id in a preview URL (`http://<port>-<sandboxId>.<domain>`). */
const sandboxOf = (url: string) => `app-sandbox-${/^\d+-([a-z0-9]+)\./.exec(new URL(url).host)![1]}`;

/** Lets the memory settle (Vite's first compile, the kernel's lazy frees). MemAvailable already counts page cache as free. */
const settle = () => Bun.sleep(5000);

console.log(`machine: ${mb(meminfo("MemTotal"))} memory, load ${loadLine()}; cgroups: ${detectCgroups().detail}\n`);
const app = await startBenchApp("bench-density-", { SANDBOX_IDLE_MINUTES: "60", MAX_SANDBOXES_PER_USER: "0", MAX_SANDBOXES_PER_HOST: "0" });
const { api, base, parts } = app;

try {
  // The template cache first, so every active sandbox gets the same warm copy (and its fill is not measured).
  const cache = parts.deps.sandboxes.templateCache;
  if (!cache) throw new Error("the local provider has no template cache");
  console.log("filling the react template's dependency cache (once)…");
  await cache.populate(await loadTemplate("react"));

  const idleIds: string[] = [];
  for (let i = 0; i < IDLE; i++) {
    const projectId = await app.project(`idle-${i}`);
    await api("POST", `/api/files/${projectId}`, { path: "index.html", content: "<h1>idle</h1>\n" });
    idleIds.push(sandboxOf((await api<{ url: string }>("POST", `/api/sandbox/${projectId}/recreate`)).url));
  }
  const activeIds: string[] = [];
  for (let i = 0; i < ACTIVE; i++) {
    const projectId = await app.project(`active-${i}`);
    const applied = await api<{ url: string }>("POST", `/api/sandbox/${projectId}/template`, { template: "react" });
    await untilPreviewAnswers(base, new URL(applied.url).host, { timeoutMs: 120_000, pollMs: 50 });
    activeIds.push(sandboxOf(applied.url));
  }
  await settle();
  const groups = cgroupMemory();
  const of = (ids: string[]) => ids.map((id) => groups.get(id) ?? Number.NaN);
  const idle = of(idleIds);
  const active = of(activeIds);
  const slirp = median(slirpMemory());
  const idleEach = median(idle) + slirp;
  const activeEach = median(active) + slirp;
  console.log(`slirp4netns per sandbox (outside the cgroup): median ${mb(slirp)}`);
  console.log(`idle sandboxes (${IDLE}): cgroup ${idle.map((m) => m.toFixed(0)).join(", ")} MB; each with its network: ${mb(idleEach)}`);
  console.log(
    `active sandboxes (${ACTIVE}, Vite dev server of the react template, preview loaded): cgroup ${active.map((m) => m.toFixed(0)).join(", ")} MB; each with its network: ${mb(activeEach)}`,
  );
  const apiRss = process.memoryUsage().rss / 1024 / 1024;
  console.log(`the API process itself (this bench's, PGlite in it): ${mb(apiRss)} RSS`);

  const room = meminfo("MemTotal") - KEPT_MB;
  console.log(
    `\nfit on this machine (${mb(meminfo("MemTotal"))}, ${KEPT_MB} MB kept): ${Math.floor(room / idleEach)} idle or ${Math.floor(room / activeEach)} active sandboxes`,
  );
  console.log(`MAX_SANDBOXES_PER_HOST's default here (1 GiB each, the memory limit): ${Math.max(1, Math.floor(room / 1024))}`);
  console.log(`load after: ${loadLine()}`);
} finally {
  await app.close();
}
