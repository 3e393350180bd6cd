/**
 * The `app` output the Preview keeps in the browser: the logs endpoint's answer, then live lines from the
 * WebSocket appended, bounded to the last MAX_APP_LOG_LINES. Lines that arrived live while the first fetch
 * was on its way may also be in its answer: those already at the end are not added twice. Each line is shown
 * with its ANSI colours and one timestamp (logLineRuns).
 */
import type { ProcessLogLine } from "@shared/schemas/processes";
import { type AnsiRun, parseAnsi, stripAnsi } from "./ansi";

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

/** A time of day or an ISO date-time at the start of a line, as dev servers print them ("8:21:43 AM [vite] …"). */
const OWN_TIME = /^\[?(?:\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?: ?[AaPp][Mm])?(?:Z|[+-]\d{2}:?\d{2})?\]?\s+/;

/**
 * A log line as the panel shows it: styled runs from its ANSI codes, what a progress bar overwrote with `\r`
 * gone, and without the line's own leading timestamp, since the panel shows the time each line arrived.
 */
export function logLineRuns(text: string): AnsiRun[] {
  const shown =
    text
      .split("\r")
      .filter((part) => stripAnsi(part).length > 0)
      .at(-1) ?? "";
  const runs = parseAnsi(shown);
  const own = OWN_TIME.exec(runs.map((r) => r.text).join(""));
  if (!own) return runs;
  let drop = own[0].length;
  const kept: AnsiRun[] = [];
  for (const run of runs) {
    if (drop >= run.text.length) drop -= run.text.length;
    else {
      kept.push(drop ? { ...run, text: run.text.slice(drop) } : run);
      drop = 0;
    }
  }
  return kept;
}

/** When a line arrived, as HH:MM:SS on the reader's clock (the stored time is UTC). */
export function logTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}
