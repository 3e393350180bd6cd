/**
 * The admin page's service (issue 24, item 8): who is an admin (ADMIN_EMAILS, verified e-mails only), what
 * runs where, and the operator's actions. A stop reaches the instance running the thing: a sandbox through
 * the sandbox service (here at once, elsewhere by its `sandbox.stop` bus event), an answer here through the run
 * manager and elsewhere by a `run.stop` bus event. Disabling a user refuses their next request on every
 * instance (`user.disabled`: each instance's UserGate reads the flag again and closes their sockets), and stops
 * the runs and sandboxes of the projects they own and the runs they started.
 *
 * @example
 * if (!isAdmin(config, caller)) throw notFound("API route");
 * await setUserDisabled(deps, caller.uid, userId, true);
 */
import type { RunManager } from "../../agent/runs";
import type { Identity } from "../../auth/types";
import * as admin from "../../db/admin";
import * as users from "../../db/users";
import type { Config } from "../../lib/config";
import { badRequest, notFound } from "../../lib/errors";
import { INSTANCE_ID as INSTANCE } from "../../lib/instance";
import { isUuid, type ServiceContext } from "../context";
import type { ProjectSandboxesService } from "../sandboxes";
import { siteUrl } from "../publish/index";
import type { UserGate } from "../users";

export type AdminDeps = ServiceContext & {
  config: Pick<Config, "adminEmails" | "sites">;
  runs: Pick<RunManager, "activeRuns" | "halt">;
  sandboxes: Pick<ProjectSandboxesService, "stop" | "sync">;
  gate: Pick<UserGate, "forget">;
};

/** Ends the partial answer an administrator stopped. */
export const ADMIN_STOP_NOTE = "_(Stopped by an administrator.)_";
/** Ends the partial answer of an account an administrator disabled. */
export const DISABLED_STOP_NOTE = "_(Stopped: this account was disabled by an administrator.)_";

/** Whether the caller is one of ADMIN_EMAILS: the provider must have verified the address. */
export function isAdmin(config: Pick<Config, "adminEmails">, caller: Identity): boolean {
  return caller.emailVerified === true && !!caller.email && config.adminEmails.includes(caller.email.trim().toLowerCase());
}

export const listUsers = (deps: AdminDeps) => admin.listUsers(deps.sql);

/**
 * Running sandboxes and answers: what the database records (leases and running messages, each with the
 * instance that holds it), joined with what this process knows it holds, which wins (a lease not yet
 * renewed, a run just claimed). `instance` says which process answered.
 */
export async function listRunning(deps: AdminDeps) {
  const [sandboxes, answers] = await Promise.all([admin.listRunningSandboxes(deps.sql), admin.listRunningAnswers(deps.sql)]);
  const sandboxesHere = new Set(deps.sandboxes.sync.all().map((a) => a.sandbox.id));
  const runsHere = new Set(deps.runs.activeRuns().map((r) => r.projectId));
  return {
    instance: INSTANCE,
    sandboxes: sandboxes.map((s) => ({ ...s, instance: sandboxesHere.has(s.sandboxId) ? INSTANCE : s.instance })),
    answers: answers.map((a) => ({ ...a, instance: runsHere.has(a.projectId) ? INSTANCE : a.instance })),
  };
}

export async function listSites(deps: AdminDeps) {
  return (await admin.listLiveSites(deps.sql)).map((s) => ({ ...s, url: siteUrl(deps.config.sites, s.slug) }));
}

/**
 * Stops the project's answer wherever it runs: here at once (`stopped`), or, when the database records one
 * running elsewhere, by asking the other instances over the bus (`relayed`). Neither: no answer is running.
 */
export async function stopRun(deps: AdminDeps, projectId: string, note = ADMIN_STOP_NOTE): Promise<{ stopped: boolean; relayed: boolean }> {
  const project = isUuid(projectId) ? await admin.findProjectSandbox(deps.sql, projectId) : null;
  if (!project) throw notFound("Project");
  if (await deps.runs.halt(projectId, note)) return { stopped: true, relayed: false };
  if (!(await admin.hasRunningAnswer(deps.sql, projectId))) return { stopped: false, relayed: false };
  await deps.events.publish({ type: "run.stop", projectId, ownerId: project.ownerId, note, origin: "api" });
  return { stopped: false, relayed: true };
}

/** Stops the project's sandbox wherever it runs; its files are all stored, and it starts again when next used. */
export async function stopSandbox(deps: AdminDeps, projectId: string): Promise<{ stopped: boolean }> {
  const project = isUuid(projectId) ? await admin.findProjectSandbox(deps.sql, projectId) : null;
  if (!project) throw notFound("Project");
  if (!project.sandboxId) return { stopped: false };
  await deps.sandboxes.stop(project.ownerId, projectId, project.sandboxId);
  return { stopped: true };
}

/**
 * Disables (or re-enables) the user. An admin cannot disable themselves (another admin can, if it must be):
 * nobody could then undo it from the page.
 */
export async function setUserDisabled(deps: AdminDeps, adminId: string, userId: string, disabled: boolean): Promise<void> {
  if (disabled && userId === adminId) throw badRequest("You cannot disable your own account.");
  if (!(await users.setUserDisabled(deps.sql, userId, disabled ? adminId : null))) throw notFound("User");
  deps.gate.forget(userId);
  await deps.events
    .publish({ type: disabled ? "user.disabled" : "user.enabled", userId, origin: "api" })
    .catch((error) => deps.logger.warn("user status change not published (other instances read it within seconds)", { error: String(error) }));
  if (disabled) await stopEverything(deps, userId);
}

/** The disabled user's runs (started by them, or in their projects) and their projects' sandboxes stop. */
async function stopEverything(deps: AdminDeps, userId: string): Promise<void> {
  const here = deps.runs.activeRuns().filter((r) => r.userId === userId || r.ownerId === userId);
  const elsewhere = (await admin.ownedRunningAnswers(deps.sql, userId)).filter((r) => !here.some((h) => h.projectId === r.projectId));
  const sandboxes = await admin.ownedSandboxes(deps.sql, userId);
  const warn = (what: string) => (error: unknown) => deps.logger.warn(`${what} not stopped for a disabled user`, { userId, error: String(error) });
  await Promise.all([
    ...here.map((r) => deps.runs.halt(r.projectId, DISABLED_STOP_NOTE).catch(warn("run"))),
    ...elsewhere.map((r) => stopRun(deps, r.projectId, DISABLED_STOP_NOTE).catch(warn("run"))),
    ...sandboxes.map((s) => deps.sandboxes.stop(userId, s.projectId, s.sandboxId).catch(warn("sandbox"))),
  ]);
}
