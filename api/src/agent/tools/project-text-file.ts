/** Reading a project file by path for the file tools, through the files service (storage is the truth). */
import { listProjectFiles, readFileContent } from "../../services/files";
import { ToolError, type ToolContext } from "./define-tool";

export async function readProjectTextFile(ctx: ToolContext, path: string): Promise<{ content: string; binary: boolean; size: number } | null> {
  const files = await listProjectFiles(ctx.services, ctx.ownerId, ctx.projectId);
  const file = files.find((f) => f.path === path);
  if (!file) return null;
  const read = await readFileContent(ctx.services, ctx.ownerId, ctx.projectId, file.id);
  return { content: read.content, binary: read.binary, size: read.size };
}

export async function requireTextFile(ctx: ToolContext, path: string): Promise<string> {
  const file = await readProjectTextFile(ctx, path);
  if (!file) throw new ToolError(`No file at ${path}. Use list_files to see the project's files.`);
  if (file.binary) throw new ToolError(`${path} is a binary file (${file.size} bytes); it cannot be read or edited as text.`);
  return file.content;
}
