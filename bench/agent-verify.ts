/**
 * The verification step's added time on a warm React project: the same agent run (a write_file that changes
 * src/App.tsx, then "Done.") with the check on (AGENT_REPAIR_ROUNDS=3, the default 500 ms settle) and off
 * (AGENT_REPAIR_ROUNDS=0), alternating, on one project in a real local sandbox whose Vite dev server is
 * already running and has compiled the app once. "Added" = median(on) − median(off), the baseline measured
 * in the same run; the check's own time (from its "Checking the app…" step to the run's end) is printed too.
 * Goal: median added < 3 s.
 *
 *   bun bench/agent-verify.ts [--rounds 7]
 */
import { grantedAccess } from "../api/src/test/access";
import { chmodSync } from "node:fs";
import { parseArgs } from "node:util";
import type { StreamEvent } from "../shared/src/events/stream";
import { createAgentRuns } from "../api/src/compose";
import { chatTestApp, FAST_LIMITS } from "../api/src/test/chat-test-app";
import { startFakeModelServer, turn } from "../api/src/test/fake-model-server";
import { sandboxSupport } from "../api/src/test/tool-harness";
import { upperMedian as median } from "./support/stats";

const { values: opts } = parseArgs({ options: { rounds: { type: "string", default: "7" } } });
const ROUNDS = Number(opts.rounds);

const support = await sandboxSupport();
if (!support.ok) {
  console.log(`agent-verify: local sandboxes are unavailable here (${support.why}); nothing measured`);
  process.exit(0);
}

const model = await startFakeModelServer();
const t = await chatTestApp({ model });
chmodSync(t.deps.config.dataDir, 0o711);
const off = createAgentRuns({ ...t.deps, agent: { limits: { ...FAST_LIMITS, repairRounds: 0 } } });
const user = t.user("bench");
const projectId = await user.project("Verify bench");

type Timed = { ms: number; checkMs: number | null; status: string; text: string };
async function timedRun(runs: typeof off, script: ReturnType<typeof turn.text>[], content: string): Promise<Timed> {
  model.enqueue(...script);
  const started = performance.now();
  const run = await runs.start(grantedAccess(user.uid, projectId), { projectId, content });
  let checkAt: number | null = null;
  let text = "";
  const done = new Promise<string>((resolve) =>
    run.subscribe((e: StreamEvent) => {
      if (e.type === "chunk") {
        text += e.content;
        if (e.step === "in_progress" && e.content.includes("Checking the app")) checkAt = performance.now();
      }
      if (e.type === "done") resolve(e.status ?? "unknown");
    }),
  );
  const status = await done;
  const end = performance.now();
  return { ms: end - started, checkMs: checkAt === null ? null : end - checkAt, status, text };
}

const app = (i: number) => `export default function App() {\n  return <h1>Bench round ${i}</h1>;\n}\n`;
const edit = (i: number) => [turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: app(i) } }]), turn.text("Done.")];

// Warm up: the template (dependencies, the dev server started), then one checked run so Vite has compiled the app.
const setup = await timedRun(t.runs, [turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "react" } }]), turn.text("Ready.")], "React app");
const warm = await timedRun(t.runs, edit(0), "warm up");
console.log(
  `setup: template ${(setup.ms / 1000).toFixed(1)} s (${setup.status}); first checked run ${(warm.ms / 1000).toFixed(2)} s (${warm.status}, ${warm.text.includes("App runs without errors") ? "app ok" : "app NOT ok"})`,
);

const on: Timed[] = [];
const base: Timed[] = [];
for (let i = 1; i <= ROUNDS; i++) {
  on.push(await timedRun(t.runs, edit(i), `round ${i} checked`));
  base.push(await timedRun(off, edit(i + 100), `round ${i} unchecked`));
}
const bad = on.filter((r) => r.status !== "complete" || !r.text.includes("App runs without errors"));
const mOn = median(on.map((r) => r.ms));
const mOff = median(base.map((r) => r.ms));
const mCheck = median(on.map((r) => r.checkMs ?? NaN));
console.log(
  `agent run with the check: median ${(mOn / 1000).toFixed(2)} s; without (AGENT_REPAIR_ROUNDS=0): ${(mOff / 1000).toFixed(2)} s  (${ROUNDS} rounds each, alternating)`,
);
console.log(
  `  verification added: median ${((mOn - mOff) / 1000).toFixed(2)} s; the check itself (Checking → done, 500 ms settle included): median ${(mCheck / 1000).toFixed(2)} s   (goal: < 3 s)`,
);
console.log(
  `  check times: ${on.map((r) => ((r.checkMs ?? 0) / 1000).toFixed(2)).join(", ")} s${bad.length ? `; ${bad.length} run(s) did not end with "App runs without errors"` : ""}`,
);

await off.shutdown();
await t.close();
await model.close();
process.exit(0);
