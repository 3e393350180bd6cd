/**
 * The agent's `AppRuntime` (agent/ports.ts) for one project: what its app is doing, its log, its problems,
 * a restart, a page load and the type-check, built on what the sandbox service offers today: the sandbox's
 * commands, the sandbox's supervised `app` process, the problems service, the preview port forward, and the
 * server's headless browser (`ctx.pageBrowser`) for running the page when no preview is open.
 *
 * `processAppServices` reads status, log and restart from the sandbox's process table and what open
 * previews reported from the problems service; `createAppRuntime` takes another set for tests.
 *
 * @example
 * const app = createAppRuntime({ ctx, access, sandbox: () => sandboxes.ensure(access), lastChangeAt });
 * await app.status(); // { status: "running", exitCode: null, ports: [5173] }
 */
import type { AppProblem, AppRuntime, AppStatus, PageLoad } from "../../agent/ports";
import { findAppSettings } from "../../db/project-sandbox";
import { NothingListeningError, type Sandbox } from "../../sandbox/types";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { readFileInProject } from "../files";
import { APP_PROCESS } from "@shared/schemas/processes";
import { browserProblemsSince, openPreviewLoad, recordCheckProblems, reloadStalePreviews } from "../problems";
import { logProblems } from "./log-problems";
import { crawlPage } from "./page-check";
import { runTypeCheck, typeCheckCommand } from "./type-check";

/** The project's app as the services see it: its sandbox, the workflow command and the port it should use. */
export type AppTarget = { ownerId: string; projectId: string; sandbox: Sandbox; command: string; port: number };

export type AppServices = {
  status(app: AppTarget): Promise<AppStatus>;
  logTail(app: AppTarget, maxBytes: number): Promise<string>;
  /** `since` in ms; today's log-based version also ignores what was logged before the last file change. */
  problemsSince(app: AppTarget, since: number): Promise<AppProblem[]>;
  restart(app: AppTarget): Promise<AppStatus>;
};

const RESTART_WAIT_MS = 20_000;
const FETCH_TIMEOUT_MS = 10_000;
const NOT_CAPTURED =
  "(The app's output was not captured: it was started outside the app's workflow, e.g. by run_shell in the background. Restart it with restart_app to keep its log.)";

export type AppRuntimeDeps = {
  ctx: ServiceContext;
  /** The run's checked access to the project. */
  access: ProjectAccess;
  sandbox(): Promise<Sandbox>;
  /** When the run last changed a file (ms), or 0. */
  lastChangeAt(): number;
  services?: AppServices;
};

export function createAppRuntime(deps: AppRuntimeDeps): AppRuntime {
  const services = deps.services ?? processAppServices(deps.ctx, deps.lastChangeAt);
  let typeCheckTooSlow = false;

  /** The app to look at, or null when the project has no workflow command. */
  async function target(): Promise<AppTarget | null> {
    const project = await findAppSettings(deps.ctx.sql, deps.access.projectId);
    if (!project?.workflowCommand) return null;
    return {
      ownerId: deps.access.ownerId,
      projectId: deps.access.projectId,
      sandbox: await deps.sandbox(),
      command: project.workflowCommand,
      port: project.previewPort,
    };
  }
  const notConfigured: AppStatus = { status: "not_configured", exitCode: null, ports: [] };

  /**
   * Runs the page in the server's headless browser; what it shows also goes to the project's Problems list,
   * marked as found by the check, since no preview of the user's saw it. `ran` false when no browser is available.
   */
  async function runHeadless(app: AppTarget): Promise<PageLoad> {
    const browser = deps.ctx.pageBrowser;
    const startedAt = new Date();
    const found = browser ? await browser.run(app.projectId, `${await appOrigin(app.sandbox, app.port)}/`) : null;
    if (!found) return { problems: [], ran: false };
    if (found.length > 0) {
      const seenAt = new Date();
      await recordCheckProblems(
        deps.ctx,
        app.projectId,
        app.ownerId,
        // The page loaded as the check began: its code is the newest, so these revive a problem a change made stale.
        found.map((f) => ({
          source: f.source,
          message: f.message,
          detail: f.detail,
          file: f.file ?? null,
          line: f.line ?? null,
          seenAt,
          pageLoadedAt: startedAt,
        })),
      ).catch((error) => deps.ctx.logger.warn("the check's problems were not recorded", { projectId: app.projectId, error: String(error) }));
    }
    return { problems: found.map(({ detail: _, ...problem }) => problem), ran: true };
  }

  return {
    async status() {
      const app = await target();
      return app ? services.status(app) : notConfigured;
    },
    async probe() {
      const app = await target();
      if (!app) return null;
      const res = await appFetch(app.sandbox, app.port, "/").catch((error: unknown) => String(error instanceof Error ? error.message : error));
      if (typeof res === "string") return { port: app.port, httpStatus: null, detail: res };
      const body = await res.text().catch(() => "");
      const detail =
        res.status >= 500
          ? body
              .replace(/<[^>]+>/g, " ")
              .replace(/\s+/g, " ")
              .trim()
              .slice(0, 300)
          : undefined;
      return { port: app.port, httpStatus: res.status, ...(detail ? { detail } : {}) };
    },
    async logTail(maxBytes) {
      const app = await target();
      return app ? services.logTail(app, maxBytes) : "";
    },
    async problemsSince(since) {
      const app = await target();
      return app ? services.problemsSince(app, since.getTime()) : [];
    },
    async restart() {
      const app = await target();
      return app ? services.restart(app) : notConfigured;
    },
    // The server fetches the page and every module itself (page-check.ts), so compile errors show. Then, with
    // no preview open, it runs the page in its headless browser (page-browser.ts) for what the page throws as
    // it runs; an open preview runs it already and reports that itself (if it loads the change: else the check
    // calls runPageHeadless). Without a browser, the page was only fetched: `ran` says so, and the check does
    // not claim the app runs.
    async loadPage() {
      const app = await target();
      if (!app) return { problems: [], ran: false };
      let crawled: AppProblem[];
      try {
        crawled = await crawlPage((path) => appFetch(app.sandbox, app.port, path));
      } catch (error) {
        if (error instanceof NothingListeningError) return { problems: [], ran: false };
        return {
          problems: [{ source: "server", message: `Loading the app's page failed: ${error instanceof Error ? error.message : String(error)}` }],
          ran: false,
        };
      }
      // A page that does not compile gives a browser nothing new to run.
      if (crawled.length > 0) return { problems: crawled, ran: false };
      if (await openPreviewLoad(deps.ctx, deps.access.projectId).catch(() => null)) return { problems: [], ran: false, leftToPreview: true };
      return runHeadless(app);
    },
    // The check calls this when an open preview did not load the run's last change in time (verify.ts).
    async runPageHeadless() {
      const app = await target();
      return app ? runHeadless(app) : { problems: [], ran: false };
    },
    async reloadStalePreviews(changedAt) {
      await reloadStalePreviews(deps.ctx, deps.access.projectId, changedAt);
    },
    // What the reporter in open previews pinged (services/problems/preview-loads.ts).
    previewLoad: () => openPreviewLoad(deps.ctx, deps.access.projectId),
    async typeCheck(signal) {
      if (typeCheckTooSlow) return null;
      const [pkg, tsconfig] = await Promise.all([
        readFileInProject(deps.ctx, deps.access, "package.json"),
        readFileInProject(deps.ctx, deps.access, "tsconfig.json"),
      ]);
      const command = typeCheckCommand(pkg?.content ?? null, tsconfig !== null);
      if (!command) return null;
      const sandbox = await deps.sandbox();
      const outcome = await runTypeCheck((c, o) => sandbox.run(c, o), command, signal);
      if (outcome.skipped === "slow") typeCheckTooSlow = true;
      return outcome.skipped ? null : { command, problems: outcome.problems };
    },
  };
}

/** Where the server reaches the app's port: the host's port forward (local) or the provider's public host (E2B). */
async function appOrigin(sandbox: Sandbox, port: number): Promise<string> {
  const local = await sandbox.previewTarget(port);
  return local ? `http://${local.hostname}:${local.port}` : `https://${sandbox.publicPreviewHost(port)}`;
}

/** GET `path` of the app's port, at its origin (appOrigin). */
async function appFetch(sandbox: Sandbox, port: number, path: string): Promise<Response> {
  const origin = await appOrigin(sandbox, port);
  const get = () => fetch(`${origin}${path}`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "manual" });
  // A kept-alive connection to a server that has since restarted fails once; a fresh one tells the truth.
  return get().catch((error: unknown) =>
    error instanceof Error && /ECONNRESET|socket connection was closed/i.test(error.message) ? get() : Promise.reject(error),
  );
}

/**
 * The app as the supervised processes (the sandbox's `app` process: status, ports, its time-stamped log) and
 * the problems service (what open previews reported) show it.
 */
export function processAppServices(ctx: ServiceContext, lastChangeAt: () => number): AppServices {
  async function status(app: AppTarget): Promise<AppStatus> {
    const info = (await app.sandbox.processes.list()).find((p) => p.name === APP_PROCESS);
    // No `app` process (another instance holds it, or none was started): as good as exited.
    if (!info) return { status: "exited", exitCode: null, ports: [] };
    return { status: info.status, exitCode: info.exitCode, ports: info.ports };
  }
  async function appLines(app: AppTarget) {
    return (await app.sandbox.processes.logs(APP_PROCESS))?.lines ?? null;
  }
  return {
    status,
    async logTail(app, maxBytes) {
      const lines = await appLines(app);
      if (!lines) return NOT_CAPTURED;
      const text = lines.map((l) => l.text).join("\n");
      return text.length > maxBytes ? text.slice(text.length - maxBytes) : text;
    },
    async problemsSince(app, since) {
      // A log line is history, not a state: what was printed before the last change may since be fixed.
      const from = Math.max(since, lastChangeAt());
      const logged = logProblems(((await appLines(app)) ?? []).filter((l) => Date.parse(l.t) >= from).map((l) => l.text));
      // The dev server's lines are read from its log above; what pages threw comes from open previews.
      // By the latest occurrence, not the first: a crash that survives a fix is seen again after it, from a page
      // running the new code (a crash from before the run, as "Fix with AI" finds it, the same).
      const reported = (await browserProblemsSince(ctx, app.projectId, new Date(from))).map((p) => ({
        source: p.source,
        message: p.message,
        file: p.file,
        line: p.line,
      }));
      return [...logged, ...reported];
    },
    async restart(app) {
      const restarted = await app.sandbox.processes.restart(APP_PROCESS);
      if (!restarted) await app.sandbox.processes.start(APP_PROCESS, app.command);
      const deadline = Date.now() + RESTART_WAIT_MS;
      for (;;) {
        const now = await status(app);
        if ((now.status !== "starting" && now.status !== "exited") || now.ports.length > 0 || Date.now() > deadline) return now;
        await Bun.sleep(200);
      }
    },
  };
}
