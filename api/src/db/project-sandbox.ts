/** The sandbox a project runs in, and the port its preview shows. */
import type { Sql } from "./client";

export async function setProjectSandbox(sql: Sql, projectId: string, sandboxId: string | null, sandboxUrl: string | null): Promise<void> {
  await sql`update projects set sandbox_id = ${sandboxId}, sandbox_url = ${sandboxUrl}, updated_at = now() where id = ${projectId}`;
}

export async function getPreviewPort(sql: Sql, projectId: string): Promise<number> {
  const [row] = await sql<{ port: number }[]>`select preview_port as port from projects where id = ${projectId}`;
  return row?.port ?? 5173;
}

export async function setPreviewPort(sql: Sql, projectId: string, port: number): Promise<void> {
  await sql`update projects set preview_port = ${port} where id = ${projectId}`;
}
