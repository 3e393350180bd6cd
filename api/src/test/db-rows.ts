/** Rows the query tests start from: a fresh owner and their projects, written through the real queries. */
import type { Sql } from "../db/client";
import { insertProject } from "../db/projects";
import { upsertUser } from "../db/users";

export async function newOwner(sql: Sql): Promise<string> {
  const id = `user-${crypto.randomUUID()}`;
  await upsertUser(sql, { id, email: `${id}@example.com`, displayName: "Test", photoURL: null });
  return id;
}

export async function newProject(sql: Sql, ownerId: string, name = "app"): Promise<string> {
  const id = crypto.randomUUID();
  await insertProject(sql, { id, ownerId, name, description: null });
  return id;
}
