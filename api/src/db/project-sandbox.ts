/** The sandbox a project runs in, and the port its preview shows. */
import type { Sql } from "./client";

/** Records the project's sandbox; false when the project no longer exists (deleted meanwhile). */
export async function setProjectSandbox(sql: Sql, projectId: string, sandboxId: string | null, sandboxUrl: string | null): Promise<boolean> {
  const result = await sql`update projects set sandbox_id = ${sandboxId}, sandbox_url = ${sandboxUrl}, updated_at = now() where id = ${projectId}`;
  return result.count > 0;
}

export async function getPreviewPort(sql: Sql, projectId: string): Promise<number> {
  const [row] = await sql<{ port: number }[]>`select preview_port as port from projects where id = ${projectId}`;
  return row?.port ?? 5173;
}

export async function setPreviewPort(sql: Sql, projectId: string, port: number): Promise<void> {
  await sql`update projects set preview_port = ${port} where id = ${projectId}`;
}

/** The project's recorded sandbox and workflow command (for callers that checked its owner), or null when it is gone. */
export async function findSandboxRecord(sql: Sql, projectId: string): Promise<{ sandboxId: string | null; workflowCommand: string | null } | null> {
  const [row] = await sql<{ sandboxId: string | null; workflowCommand: string | null }[]>`
    select sandbox_id as "sandboxId", workflow_command as "workflowCommand" from projects where id = ${projectId}`;
  return row ?? null;
}

/** The project's workflow command and preview port, in one read, or null when it is gone. */
export async function findAppSettings(sql: Sql, projectId: string): Promise<{ workflowCommand: string | null; previewPort: number } | null> {
  const [row] = await sql<{ workflowCommand: string | null; previewPort: number }[]>`
    select workflow_command as "workflowCommand", preview_port as "previewPort" from projects where id = ${projectId}`;
  return row ?? null;
}

/** Whether some project names this sandbox as its own (false once the project is deleted or recreated). */
export async function isProjectSandbox(sql: Sql, sandboxId: string): Promise<boolean> {
  const rows = await sql`select 1 from projects where sandbox_id = ${sandboxId}`;
  return rows.length > 0;
}

/** The project's recorded preview URL, or null (no sandbox, or the project is gone). */
export async function findSandboxUrl(sql: Sql, projectId: string): Promise<string | null> {
  const [row] = await sql<{ url: string | null }[]>`select sandbox_url as url from projects where id = ${projectId}`;
  return row?.url ?? null;
}
