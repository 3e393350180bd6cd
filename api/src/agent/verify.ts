/**
 * Verify, then repair: when a run changed files, before it ends the app is checked (is `app` running, does
 * its port answer, which problems appeared since the run's first change, what does the type-check say). When
 * a preview of the app is open, the check also waits (at most PREVIEW_LOAD_WAIT_MS) for it to load the run's
 * last change, so what that page throws as it runs is in the check too. What
 * is wrong goes back to the model as a new step, deduplicated and trimmed; after `rounds` such repair rounds
 * the run ends saying what still fails. With no preview open, `loadPage` runs the page in the server's headless
 * browser, and so does `runPageHeadless` when an open preview did not load the last change in time (that
 * preview is asked to reload); where no browser is available the check says "Compiles; not run in a
 * browser", never that the app runs without errors. It works only through the `AppRuntime` port.
 *
 * @example
 * const tracked = trackChanges(workspace);
 * const beforeFinish = createVerifier({ app: workspace.app, rounds: 3, settleMs: 500, changedSince: tracked.changedSince, lastChangedAt: tracked.lastChangedAt });
 * await runAgent({ ...input, toolContext: { ...tracked.workspace, … }, beforeFinish });
 */
import { sleep } from "./model-stream";
import type { AppProblem, AppRuntime, AppStatus, PageLoad, Workspace } from "./ports";
import type { StepStatus } from "./tools/define-tool";

/** What the loop does when the model finishes: end (null), go on with a new step, or end as failed. */
export type FinishCheck = string | { fail: string } | null;
export type FinishContext = { step(line: string, status: StepStatus): void; signal: AbortSignal };

export type VerifyOptions = {
  app: AppRuntime;
  /** Repair rounds before the run ends with what still fails (AGENT_REPAIR_ROUNDS). */
  rounds: number;
  /** Time given to the dev server to recompile after the last change before anything is looked at. */
  settleMs: number;
  /** When the run first changed a file, or null when it changed none (then nothing is checked). */
  changedSince(): Date | null;
  /** How long an app that is starting is waited for. */
  startWaitMs?: number;
  /** When the run last changed a file: an open preview's load older than this runs code from before it. */
  lastChangedAt?(): Date | null;
  /** Up to how long an open preview is waited for (PREVIEW_LOAD_WAIT_MS). */
  previewWaitMs?: number;
};

/**
 * Up to how long the check waits for an open preview to run the run's last change: Vite sees the change, the
 * page fetches and runs the new code, and its reporter pings (report.js waits 100–200 ms for errors thrown as
 * the new code first renders). That takes well under a second; the bound is for a change no open page picks
 * up (a file no page imports, a server-rendered page that does not reload), which would otherwise hold the
 * check up. With no preview open nothing is waited for.
 */
export const PREVIEW_LOAD_WAIT_MS = 3_000;
/** After that load is seen, for errors of its first moments that went out in a request of their own. */
export const AFTER_PREVIEW_LOAD_MS = 300;
const PREVIEW_POLL_MS = 250;

const MAX_PROBLEMS = 8;
const MAX_PROBLEM_CHARS = 700;
const LOG_LINES_CHARS = 1_500;

/**
 * Wraps a workspace so the run knows when it first changed a file: writes and edits, templates, and any
 * command (run_shell, run_code), since `sed -i`, `cat >` or `npm install` change files the run never sees.
 * A command counts from just before it starts, so what the dev server logs while it runs is in the check.
 * The last change is the last write: a command after it (an `ls`, a test run) mostly changes nothing, and
 * counting it would make the check wait for a preview load that already came. A run that only ran commands
 * counts from its first one.
 */
export function trackChanges(workspace: Workspace): { workspace: Workspace; changedSince(): Date | null; lastChangedAt(): Date | null } {
  let first: Date | null = null;
  let lastWrite: Date | null = null;
  const mark = () => {
    lastWrite = new Date();
    first ??= lastWrite;
  };
  const markCommand = () => {
    first ??= new Date();
  };
  type Sandbox = NonNullable<Workspace["sandbox"]>;
  const files = {
    ...workspace.files,
    write: async (path: string, content: string) => {
      const written = await workspace.files.write(path, content);
      mark();
      return written;
    },
  };
  const sandbox = workspace.sandbox && {
    ...workspace.sandbox,
    applyTemplate: async (template: Parameters<Sandbox["applyTemplate"]>[0]) => {
      const applied = await workspace.sandbox!.applyTemplate(template);
      mark();
      return applied;
    },
    run: (command: string, options: Parameters<Sandbox["run"]>[1]) => {
      markCommand();
      return workspace.sandbox!.run(command, options);
    },
    start: (command: string, onOutput: (chunk: string) => void) => {
      markCommand();
      return workspace.sandbox!.start(command, onOutput);
    },
  };
  return { workspace: { ...workspace, files, sandbox }, changedSince: () => first, lastChangedAt: () => lastWrite ?? first };
}

export function createVerifier(o: VerifyOptions): (ctx: FinishContext) => Promise<FinishCheck> {
  let round = 0;
  // The problems the last repair round sent, to say in the next which were fixed and which remain.
  let previous: AppProblem[] = [];
  return async ({ step, signal }) => {
    const since = o.changedSince();
    if (since === null || o.rounds <= 0) return null;
    // A project without an app (no workflow command) is checked silently: only its type-check can speak.
    const hasApp = (await o.app.status()).status !== "not_configured";
    if (hasApp) step("Checking the app…", "in_progress");
    const checked = await checkApp(o, since, signal);
    const found = checked?.problems ?? null;
    // Console warnings (React's key warning…) are shown beside real problems, but start no round of their own.
    const problems = (found ?? []).filter((p) => !isWarning(p));
    const warnings = (found ?? []).length - problems.length;
    if (problems.length === 0) {
      // Only an app that ran (in an open preview or the headless browser) is said to run without errors.
      const verdict = checked?.ran ? "App runs without errors" : NOT_RUN;
      if (hasApp) step(`${verdict}${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`, "completed");
      return null;
    }
    const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
    if (round >= o.rounds) {
      step(`App still has ${count} after ${o.rounds} repair round${o.rounds === 1 ? "" : "s"}`, "completed");
      return { fail: giveUpMessage(problems, o.rounds) };
    }
    round++;
    const keys = new Set(problems.map(problemKey));
    const fixed = previous.filter((p) => !keys.has(problemKey(p)));
    const before = new Set(previous.map(problemKey));
    const left = problems.filter((p) => before.has(problemKey(p))).length;
    const fresh = problems.length - left;
    previous = problems;
    const progress =
      round > 1 ? `Found ${count} (${[`${fixed.length} fixed`, `${left} left`, ...(fresh ? [`${fresh} new`] : [])].join(", ")})` : `Found ${count}`;
    step(`${progress}, fixing (${round}/${o.rounds})`, "completed");
    return repairRequest(found ?? problems, round, o.rounds, round > 1 ? { fixed, before } : null);
  };
}

/** The check's step when the app compiles but nothing ran its page (no preview open, no browser available). */
export const NOT_RUN = "Compiles; not run in a browser";

/**
 * Every problem the app shows now, deduplicated, and whether its page ran (in an open preview or the headless
 * browser behind `loadPage`); null when there is nothing to check (no app, no type-check).
 */
export async function checkApp(
  o: Pick<VerifyOptions, "app" | "settleMs" | "startWaitMs" | "lastChangedAt" | "previewWaitMs">,
  since: Date,
  signal: AbortSignal,
): Promise<{ problems: AppProblem[]; ran: boolean } | null> {
  const { app } = o;
  // Started first: an open preview loads the change while the server looks at the app itself.
  const notWaiting = new AbortController();
  const waitSignal = AbortSignal.any([signal, notWaiting.signal]);
  const lastChange = o.lastChangedAt?.() ?? since;
  const previewLoaded = waitForPreviewLoad(app, lastChange, o.previewWaitMs ?? PREVIEW_LOAD_WAIT_MS, waitSignal);
  try {
    if (o.settleMs > 0) await sleep(o.settleMs, signal);
    const problems: AppProblem[] = [];
    let status = await waitWhileStarting(app, await app.status(), o.startWaitMs ?? 15_000, signal);
    let crawledAt: Date | null = null;
    let page: PageLoad | null = null;
    const configured = status.status !== "not_configured";
    if (configured) {
      // An app that is not running may simply never have been started: start it before judging it.
      if (status.status !== "running") status = await app.restart();
      if (status.status !== "running") {
        problems.push({ source: "server", message: `The app is not running (${describeStatus(status)}).${await logLines(app)}` });
      } else {
        const probe = await app.probe();
        if (probe && (probe.httpStatus === null || probe.httpStatus >= 500)) {
          const answer = probe.httpStatus === null ? `does not answer on port ${probe.port}` : `answers HTTP ${probe.httpStatus} on port ${probe.port}`;
          problems.push({ source: "server", message: `The app ${answer}${probe.detail ? `: ${probe.detail}` : "."}${await logLines(app)}` });
        }
        if (app.loadPage) {
          crawledAt = new Date();
          page = await app.loadPage();
          problems.push(...page.problems);
        }
      }
    }
    // An app that is down, answers 5xx or does not compile gives a page nothing new to run: the check has
    // enough to send back without waiting for the preview (which often never reports a failed hot update).
    if (!configured || problems.length > 0) notWaiting.abort();
    const [typeCheck, preview] = await Promise.all([app.typeCheck(signal), previewLoaded]);
    // The page was left to an open preview that did not load the change in time (it was still loading when the
    // file changed, and Vite never tells a socket that connects later; or it closed meanwhile): it runs older
    // code, so what it reports says nothing about the change. The headless browser runs the page instead, and
    // the preview is asked to reload so the user sees the change too.
    if (page?.leftToPreview && !preview.loaded && app.runPageHeadless) {
      if (preview.open && app.reloadStalePreviews) void app.reloadStalePreviews(lastChange).catch(() => {});
      page = await app.runPageHeadless();
      problems.push(...page.problems);
    }
    problems.push(...(await problemsStillTrue(app, since, crawledAt)));
    if (typeCheck) problems.push(...typeCheck.problems);
    if (!configured && !typeCheck && problems.length === 0) return null;
    return { problems: dedupeProblems(problems), ran: preview.loaded || (page?.ran ?? false) };
  } finally {
    // A check that failed part-way (status, restart, probe or page load threw) leaves no wait polling behind it.
    notWaiting.abort();
  }
}

/**
 * What the app reported since `since`, less the build errors the page load has since redone: the load asks
 * the dev server to compile every module again, so a compile error it logged before the load (say, for a
 * request made just before the fix landed, whose line is stamped a moment after it) is history unless the
 * load made it print again.
 */
async function problemsStillTrue(app: AppRuntime, since: Date, crawledAt: Date | null): Promise<AppProblem[]> {
  const reported = await app.problemsSince(since);
  if (!crawledAt || !reported.some((p) => p.source === "build")) return reported;
  const again = new Set((await app.problemsSince(crawledAt)).map(problemKey));
  return reported.filter((p) => p.source !== "build" || again.has(problemKey(p)));
}

/**
 * Waits until an open preview has loaded code newer than `after` (then AFTER_PREVIEW_LOAD_MS more), or
 * `waitMs` passed; returns at once when no preview is open. Resolves to whether a preview was seen open, and
 * whether one loaded that code (the app's new code then ran in it). Never rejects: the check goes on without it.
 */
async function waitForPreviewLoad(app: AppRuntime, after: Date, waitMs: number, signal: AbortSignal): Promise<{ open: boolean; loaded: boolean }> {
  let open = false;
  if (!app.previewLoad || waitMs <= 0) return { open, loaded: false };
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      const load = await app.previewLoad();
      if (!load) return { open, loaded: false };
      open = true;
      if (load.loadedAt.getTime() >= after.getTime()) {
        await sleep(AFTER_PREVIEW_LOAD_MS, signal);
        return { open, loaded: true };
      }
      const left = deadline - Date.now();
      if (left <= 0) return { open, loaded: false };
      await sleep(Math.min(PREVIEW_POLL_MS, left), signal);
    }
  } catch {
    // Aborted, or the load could not be read: the check reads what has been reported so far.
    return { open, loaded: false };
  }
}

async function waitWhileStarting(app: AppRuntime, status: AppStatus, waitMs: number, signal: AbortSignal): Promise<AppStatus> {
  const deadline = Date.now() + waitMs;
  while (status.status === "starting" && Date.now() < deadline) {
    await sleep(250, signal);
    status = await app.status();
  }
  return status;
}

function describeStatus(status: AppStatus): string {
  if (status.status === "running" || status.status === "starting") return `${status.status}, but not listening on any port`;
  return status.exitCode === null ? status.status : `${status.status} with exit code ${status.exitCode}`;
}

async function logLines(app: AppRuntime): Promise<string> {
  const tail = (await app.logTail(LOG_LINES_CHARS).catch(() => "")).trim();
  return tail ? `\nLast lines of its log:\n${tail}` : "";
}

/**
 * The same problem reported twice (by the page and by the log, or on every reload) counts once; so does a
 * type error at a line where the dev server already reported one (a missing import is both a build error
 * and TS2307: one cause, one repair).
 */
export function dedupeProblems(problems: AppProblem[]): AppProblem[] {
  const seen = new Set<string>();
  const places = new Set<string>();
  const out: AppProblem[] = [];
  for (const p of problems) {
    const key = problemKey(p);
    const place = p.file && p.line ? `${p.file}:${p.line}` : null;
    if (seen.has(key) || (place && places.has(place) && /^TS\d+:/.test(p.message))) continue;
    seen.add(key);
    if (place) places.add(place);
    out.push(p);
  }
  return out;
}

function problemKey(p: AppProblem): string {
  const first = p.message
    .replace(/\x1b\[[0-9;]*m/g, "")
    .replace(/^\s*(\d{1,2}:\d{2}:\d{2}\s*(AM|PM)?\s*)?(\[vite\]\s*)?(\(\w+\)\s*)?(Internal server error:\s*|Pre-transform error:\s*)?/i, "")
    .split("\n")[0]!
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  return first;
}

/**
 * What a page logs with console.error to warn, not because it broke: React's development warnings (a missing
 * `key`, invalid DOM nesting, deprecations) and its DevTools hint. The app runs; they are worth fixing, not
 * a repair round on their own.
 */
const WARNING =
  /^(Warning:|Each child in a list should have a unique "key" prop|Encountered two children with the same key|validateDOMNesting|In HTML, .+ cannot be a (child|descendant) of|Download the React DevTools|React does not recognize the `|Received `(true|false)` for a non-boolean attribute|.+ is deprecated\b)/;

const isWarning = (p: AppProblem) => p.source === "browser" && WARNING.test(p.message.trim());

/** One problem as the model reads it: `[build] src/App.tsx:2 — message` (`[browser warning]` for a warning). */
export function formatProblem(p: AppProblem, max = MAX_PROBLEM_CHARS): string {
  const where = p.file ? ` ${p.file}${p.line ? `:${p.line}` : ""}` : "";
  const message = p.message.replace(/\x1b\[[0-9;]*m/g, "").trim();
  const clipped = message.length > max ? `${message.slice(0, max)}… [cut]` : message;
  return `[${p.source}${isWarning(p) ? " warning" : ""}]${where} — ${clipped}`;
}

function list(problems: AppProblem[]): string {
  const shown = problems.slice(0, MAX_PROBLEMS).map((p, i) => `${i + 1}. ${formatProblem(p)}`);
  if (problems.length > MAX_PROBLEMS) shown.push(`(and ${problems.length - MAX_PROBLEMS} more)`);
  return shown.join("\n");
}

function repairRequest(problems: AppProblem[], round: number, rounds: number, since: { fixed: AppProblem[]; before: Set<string> } | null): string {
  let found = `Problems found:\n\n${list(problems)}`;
  if (since) {
    const left = problems.filter((p) => since.before.has(problemKey(p)));
    const fresh = problems.filter((p) => !since.before.has(problemKey(p)));
    found = [
      since.fixed.length
        ? `Fixed since the last round:\n${since.fixed.map((p) => `- ${formatProblem(p, 240).split("\n")[0]}`).join("\n")}`
        : "Nothing from the last round was fixed.",
      left.length ? `Still there:\n${list(left)}` : null,
      fresh.length ? `New since the last round:\n${list(fresh)}` : null,
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  return (
    `I checked the app after your changes and it is not working yet (repair round ${round} of ${rounds}). ${found}\n\n` +
    "This list is current: there is no need to call get_problems for it. Fix these problems now (read_logs shows the app's log, restart_app restarts it), then finish your reply."
  );
}

function giveUpMessage(problems: AppProblem[], rounds: number): string {
  const named = problems
    .slice(0, 3)
    .map((p) => formatProblem(p, 240).split("\n")[0])
    .join("; ");
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : "";
  // A problem's own text may already end a sentence ("Does the file exist?"): no second full stop then.
  const end = /[.?!]$/.test(`${named}${more}`) ? "" : ".";
  return `The app still has problems after ${rounds} repair round${rounds === 1 ? "" : "s"}: ${named}${more}${end} What was done so far is saved; send a message to continue fixing it.`;
}
