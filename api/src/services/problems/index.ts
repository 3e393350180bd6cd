/**
 * The Problems list of a project's running app. Problems come from three places: the script the preview
 * proxy injects into the app's pages (browser errors, Vite's overlay), Vite's HMR `error` payloads the
 * proxy sees pass by, and the dev server's own output (`ingestServerOutput`, fed from the `app` process's
 * log). They are stored in the database, so every instance shows the same list; a file change marks them
 * stale and the ones not seen again within the settle window go (watch.ts).
 *
 * @example
 * await reportFromPreview(ctx, sandboxId, [{ kind: "error", message: "boom", stack }]);
 * const problems = await listProblems(ctx, access);
 */
import type { Problem } from "@shared/schemas/problems";
import { MAX_PROBLEMS } from "@shared/schemas/problems";
import * as rows from "../../db/problems";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { browserReportToProblem, viteErrorSchema, viteErrorToProblem, type BrowserReport } from "./browser-report";
import { recordPreviewPings } from "./preview-loads";
import { announceChanged, recordProblems } from "./store";
import { DEFAULT_SETTLE_MS, type ProblemInput, type ProblemsOptions } from "./types";

export { browserReportBatchSchema } from "./browser-report";
export { ingestServerOutput } from "./server-output";
export { startProblemsWatch } from "./watch";
export { openPreviewLoad, PING_EVERY_MS, PREVIEW_OPEN_MS, reloadStalePreviews } from "./preview-loads";
export type { ProblemsOptions } from "./types";

export async function listProblems(ctx: ServiceContext, access: ProjectAccess, options: ProblemsOptions = {}): Promise<Problem[]> {
  const { projectId } = access;
  return listProblemsInProject(ctx, projectId, options);
}

/** `listProblems` for callers that checked the project's owner already (an agent run, at its start). */
export async function listProblemsInProject(ctx: ServiceContext, projectId: string, options: ProblemsOptions = {}): Promise<Problem[]> {
  // The sweep timer lives in one instance; whoever reads first after the window drops what it left.
  await rows.deleteStaleProblems(ctx.sql, projectId, new Date(Date.now() - (options.settleMs ?? DEFAULT_SETTLE_MS)));
  return rows.listProblemRows(ctx.sql, projectId, MAX_PROBLEMS);
}

/**
 * What open previews threw at `from` or later, by each problem's latest occurrence, leaving out those a file
 * change made stale until code newer than the change raises them again (an agent run's check).
 */
export async function browserProblemsSince(ctx: ServiceContext, projectId: string, from: Date): Promise<Problem[]> {
  return rows.browserProblemsSeenSince(ctx.sql, projectId, from);
}

export async function clearProblems(ctx: ServiceContext, access: ProjectAccess): Promise<void> {
  const { ownerId, projectId } = access;
  if ((await rows.deleteAllProblems(ctx.sql, projectId)) > 0) announceChanged(ctx, projectId, ownerId);
}

/** Records problems for the project that has this sandbox; its id, or null when none has it. */
async function recordForSandbox(ctx: ServiceContext, sandboxId: string, problems: (ProblemInput | null)[]): Promise<string | null> {
  const found = await rows.findProjectBySandbox(ctx.sql, sandboxId);
  if (!found) return null;
  await recordProblems(
    ctx,
    found.projectId,
    found.ownerId,
    problems.filter((p): p is ProblemInput => p !== null),
  );
  return found.projectId;
}

/**
 * Reports from a preview page of this sandbox. False when no project has the sandbox (a stale page); else
 * whether the page should reload (it runs code from before a change a check asked it to load).
 */
export async function reportFromPreview(ctx: ServiceContext, sandboxId: string, reports: BrowserReport[]): Promise<false | { reload: boolean }> {
  const now = new Date();
  const projectId = await recordForSandbox(
    ctx,
    sandboxId,
    reports.map((r) => browserReportToProblem(r, now)),
  );
  if (projectId === null) return false;
  // The page's `loaded` ping goes in after the problems it sent with it: whoever sees the load sees those too.
  return { reload: await recordPreviewPings(ctx, projectId, reports, now) };
}

/**
 * Problems the agent's check saw when it ran the page in the server's headless browser: stored with the
 * preview's (the same crash is one row), marked as found by the check, so the user sees them in Problems.
 */
export async function recordCheckProblems(ctx: ServiceContext, projectId: string, ownerId: string, problems: ProblemInput[]): Promise<void> {
  await recordProblems(
    ctx,
    projectId,
    ownerId,
    problems.map((p) => ({ ...p, foundByCheck: true })),
  );
}

/** Vite's HMR `error` payload (`err`), seen by the preview proxy on its way to the page. */
export async function reportViteError(ctx: ServiceContext, sandboxId: string, err: unknown): Promise<boolean> {
  const parsed = viteErrorSchema.safeParse(err);
  if (!parsed.success) return false;
  return (await recordForSandbox(ctx, sandboxId, [viteErrorToProblem(parsed.data, new Date())])) !== null;
}
