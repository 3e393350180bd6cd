/**
 * Access values for tests. `grantedAccess` makes one without the database, for engine tests with no projects
 * table (the agent's runs on memory stores); `accessOf` asks the real check, for tests on a database.
 */
import type { Sql } from "../db/client";
import type { ProjectAccess, ProjectRole } from "../lib/project-access";
import { fileAccess, projectAccess } from "../services/access";

export const grantedAccess = (userId: string, projectId: string, role: ProjectRole = "owner", ownerId = userId): ProjectAccess =>
  ({ userId, projectId, ownerId, role }) as ProjectAccess;

/** The owner's access to their project, through the one real check. */
export const accessOf = (ctx: { sql: Sql }, userId: string, projectId: string): Promise<ProjectAccess> => projectAccess(ctx, userId, projectId, "own");

/** The owner's access to the project a file is in, through the one real check. */
export const ownerFileAccess = (ctx: { sql: Sql }, userId: string, fileId: string): Promise<ProjectAccess> => fileAccess(ctx, userId, fileId, "own");
