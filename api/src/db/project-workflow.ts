/** The project's workflowCommand: the command that starts its app (set by the agent or a template). */
import type { Sql } from "./client";

export async function setWorkflowCommand(sql: Sql, projectId: string, command: string | null): Promise<boolean> {
  const rows = await sql`
    update projects set workflow_command = ${command}, updated_at = now() where id = ${projectId} returning id`;
  return rows.length > 0;
}
