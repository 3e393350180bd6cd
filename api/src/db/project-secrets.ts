/**
 * Queries behind `project_secrets`: names with their sealed values (sealing and opening is the secrets
 * service's, lib/secret-box.ts). A project holds at most a given number, counted under a lock on the project
 * row so two saves at once cannot pass the cap together.
 */
import type { Sql } from "./client";

export type SecretListRow = { name: string; updatedAt: Date };
export type SealedSecretRow = { name: string; sealed: string };

export async function listSecretNames(sql: Sql, projectId: string): Promise<SecretListRow[]> {
  const rows = await sql<SecretListRow[]>`
    select name, updated_at as "updatedAt" from project_secrets where project_id = ${projectId} order by name`;
  return rows.map((r) => ({ name: r.name, updatedAt: new Date(r.updatedAt) }));
}

export async function listSealedSecrets(sql: Sql, projectId: string): Promise<SealedSecretRow[]> {
  return sql<SealedSecretRow[]>`select name, value_sealed as sealed from project_secrets where project_id = ${projectId} order by name`;
}

/**
 * Creates or replaces the secret. "full" (nothing written) when it is new and the project already holds
 * `max`; "gone" when the project no longer exists.
 */
export async function upsertSecret(
  sql: Sql,
  s: { projectId: string; name: string; sealed: string; max: number },
): Promise<{ updatedAt: Date; created: boolean } | "full" | "gone"> {
  return sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    const [project] = await q`select 1 from projects where id = ${s.projectId} for update`;
    if (!project) return "gone" as const;
    const [counts] = await q<{ total: number; exists: boolean }[]>`
      select count(*)::int as total, bool_or(name = ${s.name}) as exists from project_secrets where project_id = ${s.projectId}`;
    const exists = Boolean(counts?.exists);
    if (!exists && (counts?.total ?? 0) >= s.max) return "full" as const;
    const [row] = await q<{ updatedAt: Date }[]>`
      insert into project_secrets (project_id, name, value_sealed, updated_at) values (${s.projectId}, ${s.name}, ${s.sealed}, now())
      on conflict (project_id, name) do update set value_sealed = excluded.value_sealed, updated_at = now()
      returning updated_at as "updatedAt"`;
    return { updatedAt: new Date(row!.updatedAt), created: !exists };
  });
}

/** True when there was such a secret. */
export async function deleteSecret(sql: Sql, projectId: string, name: string): Promise<boolean> {
  const rows = await sql`delete from project_secrets where project_id = ${projectId} and name = ${name} returning name`;
  return rows.length > 0;
}
