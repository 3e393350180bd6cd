/** Reading a project file as text for the file tools, with the errors the model should read. */
import { ToolError, type ToolContext } from "./define-tool";

export async function requireTextFile(ctx: Pick<ToolContext, "files">, path: string): Promise<string> {
  const file = await ctx.files.read(path);
  if (!file) throw new ToolError(`No file at ${path}. Use list_files to see the project's files.`);
  if (file.binary) throw new ToolError(`${path} is a binary file (${file.size} bytes); it cannot be read or edited as text.`);
  return file.content;
}
