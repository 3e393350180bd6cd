/**
 * Every agent tool, and the list offered to the model: their JSON schemas come from the zod inputs, and
 * tools that need an unconfigured backend (web search) are left out.
 */
import { z } from "zod";
import type { ToolSpec } from "../chat-message";
import { createBoilerplateTool } from "./create-boilerplate";
import { describeDatabaseTool } from "./describe-database";
import type { SearchBackend, Tool } from "./define-tool";
import { editFileTool } from "./edit-file";
import { getProblemsTool } from "./get-problems";
import { listFilesTool } from "./list-files";
import { readFileTool } from "./read-file";
import { readLogsTool } from "./read-logs";
import { requestSecretTool } from "./request-secret";
import { restartAppTool } from "./restart-app";
import { runCodeTool } from "./run-code";
import { runSqlTool } from "./run-sql";
import { runShellTool } from "./run-shell";
import { setWorkflowCommandTool } from "./set-workflow-command";
import { webSearchTool } from "./web-search";
import { writeFileTool } from "./write-file";

export const allTools: Tool[] = [
  createBoilerplateTool,
  writeFileTool,
  editFileTool,
  readFileTool,
  listFilesTool,
  runShellTool,
  runCodeTool,
  setWorkflowCommandTool,
  readLogsTool,
  getProblemsTool,
  restartAppTool,
  describeDatabaseTool,
  runSqlTool,
  requestSecretTool,
  webSearchTool,
] as Tool[];

export function availableTools(settings: { search: SearchBackend }): Tool[] {
  return allTools.filter((t) => !t.available || t.available(settings));
}

/** The tools as the model client is given them: name, description and input as a JSON schema. */
export function toToolSpecs(tools: Tool[]): ToolSpec[] {
  return tools.map((tool) => {
    const { $schema: _schema, ...parameters } = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    return { name: tool.name, description: tool.description, parameters };
  });
}
