/**
 * Interactive terminal keystroke echo (issue 10's Benchmark: "PTY keystroke echo round trip, p99, goal
 * < 20 ms"): one key sent over the terminal's WebSocket to bash in a real local sandbox, timed until its echo
 * comes back, one key at a time. Measured in the same run, as baselines:
 *   - a plain WebSocket echo on a bare Bun server in this process (the floor: the socket alone), and
 *   - the sandbox's terminal without the WebSocket (`Sandbox.openTerminal` from the API process: supervisor,
 *     pty helper and bash, no browser-facing hop).
 * The real server pieces (startParts + serveHttp) run in this process on a temp DATA_DIR with embedded PGlite;
 * sign-in is emulator mode with minted tokens. Needs root and the local sandbox's packages.
 *
 *   bun bench/pty-echo.ts [--keys 400]
 */
import { grantedAccess } from "../api/src/test/access";
import { parseArgs } from "node:util";
import { connectPty } from "../api/src/test/pty-client.ts";
import { startBenchApp } from "./support/bench-app.ts";
import { requireLocalSandboxes } from "./support/local-sandboxes.ts";
import { loadLine, ms as msIn, nearestRank as pick, sortedCopy } from "./support/stats.ts";

const { values: opts } = parseArgs({ options: { keys: { type: "string", default: "400" } } });
const KEYS = Number(opts.keys);
const GOAL_P99_MS = 20;
/** Keys per line before the line is wiped (Ctrl+U), so the prompt line never wraps. */
const LINE = 40;

await requireLocalSandboxes();

const ms = (n: number) => msIn(n, 2);
function report(label: string, samples: number[]) {
  const s = sortedCopy(samples);
  console.log(
    `  ${label.padEnd(48)} p50 ${ms(pick(s, 0.5)).padStart(9)}   p99 ${ms(pick(s, 0.99)).padStart(9)}   max ${ms(s.at(-1)!).padStart(9)}   (n=${s.length})`,
  );
  return pick(s, 0.99);
}

/**
 * Sends KEYS keys one at a time through `send`, each timed until `echoed` resolves (the next output).
 * Between lines: Ctrl+U and a pause, untimed.
 */
async function typeKeys(send: (key: string) => void, nextOutput: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let i = 0; i < KEYS; i++) {
    if (i > 0 && i % LINE === 0) {
      const wiped = nextOutput();
      send("\x15");
      await wiped;
      await Bun.sleep(20);
    }
    const echoed = nextOutput();
    const started = performance.now();
    send(letters[i % letters.length]!);
    await echoed;
    samples.push(performance.now() - started);
    // A person types at most a few keys per 100 ms; back-to-back keys would measure queueing instead.
    await Bun.sleep(5);
  }
  return samples;
}

/** A promise for the next chunk of output, resolved by the returned `arrived`. */
function outputWaiter() {
  let waiting: (() => void) | null = null;
  return {
    next: () => new Promise<void>((resolve) => (waiting = resolve)),
    arrived: () => {
      const w = waiting;
      waiting = null;
      w?.();
    },
  };
}

console.log(`load average before: ${loadLine()}`);
console.log(`keystroke → echo, ${KEYS} keys one at a time (5 ms apart)\n`);

// Baseline 1: a bare WebSocket echo ------------------------------------------------------------------------
const bare = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("upgrade", { status: 400 })),
  websocket: { message: (ws, m) => void ws.send(m) },
});
const bareWs = new WebSocket(`ws://127.0.0.1:${bare.port}/`);
bareWs.binaryType = "arraybuffer";
await new Promise((resolve) => (bareWs.onopen = resolve));
const bareWait = outputWaiter();
bareWs.onmessage = () => bareWait.arrived();
const bareSamples = await typeKeys((k) => bareWs.send(new TextEncoder().encode(k)), bareWait.next);
bareWs.close();
bare.stop(true);

// The real server --------------------------------------------------------------------------------------------
const app = await startBenchApp("bench-pty-", { SANDBOX_WARM_TEMPLATES: "none" });

try {
  const projectId = await app.project("pty bench");
  const sandbox = await app.parts.deps.sandboxes.ensure(grantedAccess(app.uid, projectId));

  // Baseline 2: the sandbox's terminal without the WebSocket ------------------------------------------------
  const directWait = outputWaiter();
  let directText = "";
  const direct = await sandbox.openTerminal({
    cols: 120,
    rows: 40,
    onData: (d) => ((directText += new TextDecoder().decode(d)), directWait.arrived()),
    onExit: () => {},
  });
  while (!/\$ $/.test(directText)) await Bun.sleep(20);
  const directSamples = await typeKeys((k) => direct.write(new TextEncoder().encode(k)), directWait.next);
  direct.close();

  // The real path: WebSocket → API → sandbox PTY → back -----------------------------------------------------
  const term = await connectPty(`ws://127.0.0.1:${app.port}`, projectId, app.token, { cols: 120, rows: 40 });
  await term.waitFor(/\$ $/, 30_000);
  const wsWait = outputWaiter();
  term.onOutput = () => wsWait.arrived();
  const wsSamples = await typeKeys((k) => term.type(k), wsWait.next);
  term.ws.close();

  console.log("results");
  report("baseline: bare WebSocket echo (same process)", bareSamples);
  report("baseline: sandbox terminal, no WebSocket", directSamples);
  const p99 = report("PTY over /api/sandbox/{id}/pty (the real path)", wsSamples);
  console.log(`\n  goal p99 < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS ? "met" : "NOT met"}`);
  console.log(`load average after: ${loadLine()}`);
} finally {
  await app.close();
}
