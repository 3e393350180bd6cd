/**
 * Which instance owns a project's running sandbox (the one renewing its lease, db/sandbox-slots.ts) and
 * where other instances reach it, looked up by project or by sandbox (a preview host names the sandbox).
 */
import type { Sql } from "./client";

export type SandboxOwnerRow = {
  projectId: string;
  /** The project's owner (whose account a sandbox made again counts on). */
  ownerId: string;
  sandboxId: string | null;
  /** The owning instance's id (`<hostname>-<pid>`), or null when no instance ever ran it. */
  instance: string | null;
  /** Its internal address, or null when it recorded none. */
  url: string | null;
  /** Its lease is live: the owner renewed it lately (false once it lapsed, or ended when the sandbox stopped). */
  live: boolean;
  /** The lease lapsed without being ended: the owner went away without stopping the sandbox. */
  lapsed: boolean;
};

export async function findSandboxOwner(sql: Sql, by: { projectId: string } | { sandboxId: string }): Promise<SandboxOwnerRow | null> {
  // Two statements rather than one with an `or`: each uses its own index (the project's key, the sandbox id's).
  const rows =
    "projectId" in by
      ? await sql<SandboxOwnerRow[]>`
          select id as "projectId", owner_id as "ownerId", sandbox_id as "sandboxId", sandbox_instance as instance, sandbox_instance_url as url,
            coalesce(sandbox_running_until >= now(), false) as live, coalesce(sandbox_running_until < now(), false) as lapsed
          from projects where id = ${by.projectId}`
      : await sql<SandboxOwnerRow[]>`
          select id as "projectId", owner_id as "ownerId", sandbox_id as "sandboxId", sandbox_instance as instance, sandbox_instance_url as url,
            coalesce(sandbox_running_until >= now(), false) as live, coalesce(sandbox_running_until < now(), false) as lapsed
          from projects where sandbox_id = ${by.sandboxId}`;
  return rows[0] ?? null;
}
