/**
 * What the preview proxy's per-request access check costs (issue 26: every preview request, WebSocket upgrades
 * included, reads the grant's membership or share link from the database, no cache). Two front servers in this
 * process proxy to the same upstream app: one with the real check (services/access.ts `previewAllowed` against
 * the database), one whose `allowed` admits every signed cookie (the baseline: the cookie is still opened and
 * its host compared, only the database read is skipped). The same member's cookie is sent to both, one request
 * at a time, in alternating rounds; prints p50/p95 latency of each and the ratios, all from this one run.
 *
 *   bun bench/preview-access.ts [requests per round=300] [rounds=4]
 *
 * Database: TEST_DATABASE_URL (PostgreSQL) when set, else embedded PGlite (as the unit tests).
 */
import { serveHttp } from "../api/src/http-server";
import { createPreviewProxy } from "../api/src/realtime/preview-proxy";
import { createWsHub } from "../api/src/realtime/ws-hub";
import type { Sandbox, SandboxProvider } from "../api/src/sandbox/types";
import { appServer } from "../api/src/test/app-server";
import { sharedProject } from "../api/src/test/members";
import { memoryProvider } from "../api/src/test/memory-provider";
import { enterPreview } from "../api/src/test/preview-access";
import { testApp } from "../api/src/test/test-app";
import { atFraction, loadAverage, ms, sortedCopy, warnIfBusy } from "./support/stats";

const perRound = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 4);
const loadBefore = loadAverage();

const t = await testApp({ provider: memoryProvider({ startMs: 0 }).provider });
// The app in the sandbox: a small non-HTML answer, so only the proxy's own work is measured (no reporter injection).
const upstream = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok", { headers: { "content-type": "text/plain" } }) });
const provider: SandboxProvider = {
  kind: "local",
  connect: async (id) => ({ id, previewTarget: async () => ({ hostname: "127.0.0.1", port: upstream.port }) }) as unknown as Sandbox,
  create: async () => Promise.reject(new Error("unused")),
  shutdown: async () => {},
};
const checked = appServer(t, { provider });
const baselineHub = createWsHub({ ...t.deps });
const baselineProxy = createPreviewProxy({
  provider,
  domain: t.deps.config.preview.domain,
  logger: t.deps.logger,
  tickets: t.deps.previewTickets,
  allowed: async () => true,
});
const baseline = serveHttp({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch, hub: baselineHub, preview: baselineProxy });

try {
  // A member (not the owner: the check's membership branch) entered the preview the way a browser does.
  const owner = t.user("bench-owner");
  const member = t.user("bench-member");
  const projectId = await sharedProject(owner, { viewer: member }, "Bench");
  if ((await owner.request("POST", `/api/sandbox/${projectId}/recreate`)).status !== 200) throw new Error("no sandbox");
  const { url } = (await (await owner.request("GET", `/api/sandbox/${projectId}/url`)).json()) as { url: string };
  const cookie = await enterPreview(checked.origin, member, projectId);
  if (!cookie) throw new Error("the member could not enter the preview");
  const hostname = new URL(url).hostname;

  const timeRequests = async (origin: string, n: number): Promise<number[]> => {
    const host = `${hostname}:${new URL(origin).port}`;
    const took: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const res = await fetch(`${origin}/`, { headers: { host, cookie } });
      await res.text();
      took.push(performance.now() - start);
      if (res.status !== 200) throw new Error(`${origin} answered ${res.status}`);
    }
    return took;
  };

  const servers = { checked: checked.origin, baseline: `http://127.0.0.1:${baseline.port}` };
  await timeRequests(servers.checked, 50); // warm-up: connections, JIT, the database's plan cache
  await timeRequests(servers.baseline, 50);
  const all = { checked: [] as number[], baseline: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    // Alternating which goes first, so neither always runs on the warmer machine.
    const order = r % 2 === 0 ? (["checked", "baseline"] as const) : (["baseline", "checked"] as const);
    for (const name of order) all[name].push(...(await timeRequests(servers[name], perRound)));
  }

  const db = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
  const figures = (xs: number[]) => {
    const sorted = sortedCopy(xs);
    return { p50: atFraction(sorted, 0.5), p95: atFraction(sorted, 0.95) };
  };
  const c = figures(all.checked);
  const b = figures(all.baseline);
  console.log(`Preview proxy request latency, ${rounds} rounds × ${perRound} sequential requests each, database ${db}:`);
  console.log(`  with the access check   p50 ${ms(c.p50, 2)}  p95 ${ms(c.p95, 2)}`);
  console.log(`  baseline (no DB check)  p50 ${ms(b.p50, 2)}  p95 ${ms(b.p95, 2)}`);
  console.log(`  ratio checked/baseline  p50 ${(c.p50 / b.p50).toFixed(2)}×  p95 ${(c.p95 / b.p95).toFixed(2)}×`);
  console.log(`  the check's cost        p50 +${ms(c.p50 - b.p50, 2)}`);
  warnIfBusy(loadBefore, "latencies and the ratio are noisier than on a quiet machine.");
} finally {
  checked.stop();
  baselineHub.close();
  baselineProxy.close();
  baseline.stop(true);
  upstream.stop(true);
  await t.deps.sandboxes.shutdown();
}
process.exit(0);
