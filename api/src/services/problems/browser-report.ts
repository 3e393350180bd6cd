/**
 * What the script injected into preview pages sends (POST /__appbuilder/problems on the preview host), and
 * how a report becomes a problem. Vite's compile errors arrive two ways, both `build`: the error overlay the
 * page shows (reported by the script) and the HMR socket's `error` payload (seen by the preview proxy).
 */
import { z } from "zod";
import { headline } from "./headline";
import { firstProjectFrame, isForeignPath, projectRelativePath } from "./source-path";
import type { ProblemInput } from "./types";

/** `loaded` is no problem: an open page saying it is there and how long ago the code it runs started loading. */
export const REPORT_KINDS = ["error", "rejection", "console", "resource", "vite", "blank", "loaded"] as const;

const text = (max: number) => z.string().transform((s) => s.slice(0, max));

export const browserReportSchema = z.object({
  kind: z.enum(REPORT_KINDS),
  message: text(2000),
  stack: text(8000).nullish(),
  /** A URL or path, optionally with `:line:col` (the overlay's file line). */
  file: text(1000).nullish(),
  line: z.number().int().min(0).max(10_000_000).nullish(),
  /** When the reporting page started loading (ms since the epoch, the browser's clock). */
  loadedAt: z.number().int().min(0).max(8.64e15).nullish(),
  /**
   * How long ago (ms, by the page's own monotonic clock, so the browser's wall clock does not matter) the
   * newest code the page runs started loading, a page load or a hot update: for `loaded`, as of the ping; for
   * a problem, the code that raised it. A page updated in place keeps its load time but not this.
   */
  loadAgeMs: z.number().int().min(0).max(8.64e7).nullish(),
});
export type BrowserReport = z.infer<typeof browserReportSchema>;

/** At most this many reports in one request; the script batches. */
export const MAX_REPORTS_PER_REQUEST = 20;
export const browserReportBatchSchema = z.object({ reports: z.array(browserReportSchema).min(1).max(MAX_REPORTS_PER_REQUEST) });

/** `src/App.tsx:3:7` → file and line; anything else is the file alone. */
function splitPosition(raw: string | null | undefined, line: number | null | undefined) {
  if (!raw) return { file: null, line: line ?? null };
  const m = /^(.*?):(\d+)(?::\d+)?$/.exec(raw.trim());
  return m ? { file: projectRelativePath(m[1]), line: Number(m[2]) } : { file: projectRelativePath(raw), line: line ?? null };
}

export function browserReportToProblem(report: BrowserReport, seenAt: Date): ProblemInput | null {
  if (report.kind === "loaded") return null;
  const message = headline(report.message);
  if (!message) return null;
  const given = splitPosition(report.file, report.line);
  // The stack's first frame in the project's own code says more than the file the error surfaced in
  // (often React's or Vite's chunk); then the given file, unless it is a dependency.
  const frame = report.kind === "vite" ? null : firstProjectFrame(report.stack);
  const location = frame ?? (given.file && (report.kind === "vite" || !isForeignPath(given.file)) ? given : { file: null, line: null });
  return {
    source: report.kind === "vite" ? "build" : "browser",
    message,
    detail: report.stack?.trim() || null,
    file: location.file,
    line: location.line || null,
    seenAt,
    pageLoadedAt: codeTime(report, seenAt),
  };
}

/** When, on the server's clock, the code that raised a report started loading; null when the page did not say. */
function codeTime(report: BrowserReport, seenAt: Date): Date | null {
  if (report.loadAgeMs != null) return new Date(seenAt.getTime() - report.loadAgeMs);
  return report.loadedAt ? new Date(report.loadedAt) : null;
}

/** Vite's HMR `{ type: "error", err }` payload, as the preview proxy sees it pass to the page. */
export const viteErrorSchema = z.object({
  message: text(4000),
  stack: text(8000).nullish(),
  id: text(1000).nullish(),
  frame: text(4000).nullish(),
  plugin: text(200).nullish(),
  loc: z.object({ file: text(1000).nullish(), line: z.number().nullish(), column: z.number().nullish() }).nullish(),
});

export function viteErrorToProblem(err: z.infer<typeof viteErrorSchema>, seenAt: Date): ProblemInput | null {
  const message = headline(err.message);
  if (!message) return null;
  const detail = [err.plugin ? `Plugin: ${err.plugin}` : "", err.frame?.trim() ?? "", err.stack?.trim() ?? ""].filter(Boolean).join("\n\n");
  return {
    source: "build",
    message,
    detail: detail || null,
    file: projectRelativePath(err.loc?.file ?? err.id),
    line: err.loc?.line ?? null,
    seenAt,
  };
}
