/**
 * The one access check: what a user may do in a project. Every project-scoped route, the WebSocket, the preview
 * proxy, the terminal and the agent's runs call `projectAccess`; the services they then call take the value it
 * returns, so a path that skipped the check does not compile. Read from the database on every request (no cache),
 * so a removed member or a changed role counts from their next request on every instance.
 *
 * @example
 * const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
 * await files.listProjectFiles(deps, access);
 */
import type { Project } from "@shared/schemas/project";
import type { Sql } from "../db/client";
import * as projects from "../db/projects";
import { findLiveShareLink, linkSeesSandbox, userSeesSandbox } from "../db/share-links";
import { forbidden, notFound } from "../lib/errors";
import type { PreviewGrant } from "../lib/preview-grant";
import { type AccessNeed, type ProjectAccess, type ProjectRole, roleAllows } from "../lib/project-access";
import { isUuid } from "./context";

export type { AccessNeed, ProjectAccess, ProjectRole } from "../lib/project-access";

/** What a role lacking `need` reads: a viewer is told they can only view; an editor that only the owner may. */
export function deniedMessage(role: ProjectRole, need: AccessNeed): string {
  if (role === "viewer") return "You can only view this project.";
  return need === "own" ? "Only the project's owner can do this." : "You cannot do this in this project.";
}

/** The checked access with the project's row as read for the check (saves routes a second read). */
export type ProjectAccessWithProject = { access: ProjectAccess; project: Project };

/**
 * The caller's access to the project for `need`: 404 when the project is missing or they have no role in it
 * (never reveal which), 403 when their role is too small.
 */
export async function projectAccessWithProject(ctx: { sql: Sql }, userId: string, projectId: string, need: AccessNeed): Promise<ProjectAccessWithProject> {
  const found = isUuid(projectId) ? await projects.findProjectWithRole(ctx.sql, userId, projectId) : null;
  if (!found) throw notFound("Project");
  if (!roleAllows(found.role, need)) throw forbidden(deniedMessage(found.role, need));
  const access = { projectId: found.project.id, userId, ownerId: found.ownerId, role: found.role } as ProjectAccess;
  return { access, project: found.project };
}

/** `projectAccessWithProject`, the access alone. */
export async function projectAccess(ctx: { sql: Sql }, userId: string, projectId: string, need: AccessNeed): Promise<ProjectAccess> {
  return (await projectAccessWithProject(ctx, userId, projectId, need)).access;
}

/** The caller's access to the project a file is in (routes that address one file by its id): 404 as for the project. */
export async function fileAccess(ctx: { sql: Sql }, userId: string, fileId: string, need: AccessNeed): Promise<ProjectAccess> {
  // A stranger's file answers as a missing one does, not as a project that exists.
  const found = isUuid(fileId) ? await projects.findFileProjectRole(ctx.sql, userId, fileId) : null;
  if (!found) throw notFound("File");
  if (!roleAllows(found.role, need)) throw forbidden(deniedMessage(found.role, need));
  return { projectId: found.projectId, userId, ownerId: found.ownerId, role: found.role } as ProjectAccess;
}

/**
 * Whether a preview grant (a member's or a share link's, from the preview host's cookie) still opens this
 * sandbox: the member still has a role in the project (any role may view), or the link is neither revoked nor
 * expired, and the sandbox is still the project's. One indexed read on every proxied request, no cache, so a
 * removal or a revocation counts from the next request on every instance.
 */
export async function previewAllowed(ctx: { sql: Sql }, grant: PreviewGrant, sandboxId: string): Promise<boolean> {
  if (!isUuid(grant.projectId)) return false;
  if (grant.userId !== undefined) return userSeesSandbox(ctx.sql, grant.userId, grant.projectId, sandboxId);
  const { linkId } = grant;
  return linkId !== undefined && isUuid(linkId) && linkSeesSandbox(ctx.sql, linkId, grant.projectId, sandboxId);
}

/**
 * What a live share link (by its token's hash) may do: view the project's preview, starting its sandbox on
 * the owner's account (their limits and start counts). Acting as the owner with the viewer's role: every
 * project-scoped service that needs more refuses it. 404 for a revoked, expired or unknown link.
 */
export async function shareLinkAccess(ctx: { sql: Sql }, tokenHash: string): Promise<{ access: ProjectAccess; linkId: string }> {
  const link = await findLiveShareLink(ctx.sql, tokenHash);
  if (!link) throw notFound("Link");
  const access = { projectId: link.projectId, userId: link.ownerId, ownerId: link.ownerId, role: "viewer" } as ProjectAccess;
  return { access, linkId: link.id };
}
