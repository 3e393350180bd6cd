/**
 * The `app` output the Preview keeps in the browser: the logs endpoint's answer, then live lines from the
 * WebSocket appended, bounded to the last MAX_APP_LOG_LINES. Lines that arrived live while the first fetch
 * was on its way may also be in its answer: those already at the end are not added twice.
 */
import type { ProcessLogLine } from "@shared/schemas/processes";

export const MAX_APP_LOG_LINES = 1_000;

const same = (a: ProcessLogLine, b: ProcessLogLine) => a.t === b.t && a.stream === b.stream && a.text === b.text;

/** `fetched` followed by those `live` lines it does not already end with, the last `max` kept. */
export function mergeLogLines(fetched: ProcessLogLine[], live: ProcessLogLine[], max = MAX_APP_LOG_LINES): ProcessLogLine[] {
  let skip = 0;
  // The longest prefix of `live` that is also a suffix of `fetched` was fetched already.
  for (let n = Math.min(live.length, fetched.length); n > 0; n--) {
    const tail = fetched.slice(fetched.length - n);
    if (tail.every((line, i) => same(line, live[i]!))) {
      skip = n;
      break;
    }
  }
  return appendLogLines(fetched, live.slice(skip), max);
}

export function appendLogLines(lines: ProcessLogLine[], more: ProcessLogLine[], max = MAX_APP_LOG_LINES): ProcessLogLine[] {
  const all = more.length ? [...lines, ...more] : lines;
  return all.length > max ? all.slice(all.length - max) : all;
}

/** What the status line says about `app`. */
export function appStatusText(app: { status: string; ports: number[]; exitCode: number | null } | null | undefined): string {
  if (!app) return "App not started";
  if (app.status === "starting") return "Starting…";
  if (app.status === "running") return app.ports[0] ? `Running on port ${app.ports[0]}` : "Running";
  if (app.status === "crashed") return app.exitCode === null ? "Crashed" : `Crashed (exit code ${app.exitCode})`;
  return app.exitCode === null || app.exitCode === 0 ? "Stopped" : `Stopped (exit code ${app.exitCode})`;
}
