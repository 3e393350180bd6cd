/**
 * Local sandbox start: time from `provider.create()` to the first command's result (`echo ok`), over
 * RUNS sandboxes (each killed before the next, not timed), as the provider runs by default (a started
 * spare sandbox is handed out) and cold (every piece started on demand). Goal: median under 50 ms.
 * Needs root and the local sandbox's packages (scripts/setup-test-env.sh).
 *
 *   bun bench/sandbox-start.ts [runs]
 *
 * bench/sandbox-preview.ts measures the same (support/local-sandboxes.ts) as its first figure.
 */
import { E2B_PUBLISHED_START_MS, measureSandboxStart, reportSandboxStart, requireLocalSandboxes } from "./support/local-sandboxes";
import { loadLine } from "./support/stats";

const runs = Number(process.argv[2] ?? 20);
await requireLocalSandboxes();
console.log(`load average before: ${loadLine()}`);
reportSandboxStart("local sandbox create + first command, default (a started spare is handed out)", await measureSandboxStart(1, runs));
reportSandboxStart("local sandbox create + first command, cold (spares: 0: namespace, network, supervisor each time)", await measureSandboxStart(0, runs));
console.log(`reference (published by E2B, not measured here): E2B sandbox start ~${E2B_PUBLISHED_START_MS} ms`);
