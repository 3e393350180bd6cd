/** Project rules: every project has an owner, and only the owner can see or change it. */
import type { CreateProject, Project } from "@shared/schemas/project";
import { findSite } from "../db/deployments";
import * as projects from "../db/projects";
import { conflict, notFound } from "../lib/errors";
import type { ProjectAccess } from "./access";
import { dropProjectDatabases } from "./app-databases";
import { projectPrefix, type ServiceContext } from "./context";

export const listProjects = (ctx: ServiceContext, ownerId: string) => projects.listProjects(ctx.sql, ownerId);

/** Creates the project, unless its owner already has MAX_PROJECTS_PER_USER of them (409). */
export async function createProject(ctx: ServiceContext, ownerId: string, input: CreateProject): Promise<Project> {
  const max = ctx.config?.limits.maxProjectsPerUser ?? 0;
  const created = await projects.insertProjectWithinCap(
    ctx.sql,
    { id: crypto.randomUUID(), ownerId, name: input.name, description: input.description ? input.description : null },
    max,
  );
  if ("project" in created) return created.project;
  throw conflict(`You already have ${created.count} projects, the most one account may have (${max}). Delete a project to make room.`);
}

/** The project the caller holds access to, read now (404 when it was deleted since the check). */
export async function getProject(ctx: Pick<ServiceContext, "sql">, access: ProjectAccess): Promise<Project> {
  const project = await projects.findProjectById(ctx.sql, access.projectId);
  if (!project) throw notFound("Project");
  return project;
}

/** The sandbox service, which stops a deleted project's sandbox; absent where none runs (tests, scripts). */
export type DeleteProjectContext = ServiceContext & {
  sandboxes?: { stop(ownerId: string, projectId: string, sandboxId: string | null): Promise<void> };
};

/**
 * Deletes the project, its messages, its file rows and its stored objects, then stops its sandbox (before
 * answering: the deleted project's preview answers 404 from this moment). The rows go in a transaction
 * that commits only after the objects are gone, so a storage failure leaves the project whole (503)
 * rather than rows pointing at nothing or objects nobody owns. Returns the sandbox it had.
 */
export async function deleteProject(ctx: DeleteProjectContext, access: ProjectAccess): Promise<{ sandboxId: string | null }> {
  const { ownerId, projectId: id } = access;
  const { deleted, site } = await ctx.sql.begin(async (tx) => {
    const q = tx as unknown as typeof ctx.sql;
    const site = await findSite(q, id);
    const deleted = await projects.deleteProject(q, ownerId, id);
    if (!deleted) throw notFound("Project");
    await ctx.store.deletePrefix(projectPrefix(id));
    return { deleted, site };
  });
  // Its published site (the row went with the project) stops answering on every instance now, not when
  // their caches expire.
  if (site) await ctx.events.publishSite({ type: "site.changed", slug: site.slug }).catch(() => {});
  await ctx.sandboxes?.stop(ownerId, id, deleted.sandboxId);
  // After the rows: a failed drop leaves its app_databases row, so the database is still known and can be dropped later.
  await dropProjectDatabases(ctx, id).catch((error) => ctx.logger.warn("project database not dropped", { projectId: id, error: String(error) }));
  return deleted;
}
