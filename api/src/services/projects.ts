/** Project rules: every project has an owner, and only the owner can see or change it. */
import type { CreateProject, Project } from "@shared/schemas/project";
import * as projects from "../db/projects";
import { notFound } from "../lib/errors";
import { isUuid, projectPrefix, type ServiceContext } from "./context";

export const listProjects = (ctx: ServiceContext, ownerId: string) => projects.listProjects(ctx.sql, ownerId);

export async function createProject(ctx: ServiceContext, ownerId: string, input: CreateProject): Promise<Project> {
  return projects.insertProject(ctx.sql, {
    id: crypto.randomUUID(),
    ownerId,
    name: input.name,
    description: input.description ? input.description : null,
  });
}

/** The caller's project, or 404 whether it is missing or someone else's (never reveal which). */
export async function getOwnedProject(ctx: ServiceContext, ownerId: string, id: string): Promise<Project> {
  const project = isUuid(id) ? await projects.findProject(ctx.sql, ownerId, id) : null;
  if (!project) throw notFound("Project");
  return project;
}

/**
 * Deletes the project, its messages, its file rows and its stored objects. The rows go in a transaction
 * that commits only after the objects are gone, so a storage failure leaves the project whole (503)
 * rather than rows pointing at nothing or objects nobody owns.
 */
export async function deleteProject(ctx: ServiceContext, ownerId: string, id: string): Promise<void> {
  await getOwnedProject(ctx, ownerId, id);
  await ctx.sql.begin(async (tx) => {
    const deleted = await projects.deleteProject(tx as unknown as typeof ctx.sql, ownerId, id);
    if (!deleted) throw notFound("Project");
    await ctx.store.deletePrefix(projectPrefix(id));
  });
}
