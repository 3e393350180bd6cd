/** write_file: creates a project file or replaces its whole content (stored, then synced to the sandbox). */
import { z } from "zod";
import { writeFileAtPath } from "../../services/files";
import { defineTool } from "./define-tool";
import { toolPathSchema } from "./tool-path";

export const writeFileTool = defineTool({
  name: "write_file",
  description:
    "Create a file, or replace the whole content of an existing one. Parent folders are created as needed. " +
    "For a small change to a large file prefer edit_file.",
  input: z.object({
    path: toolPathSchema,
    content: z.string().describe("The complete new content of the file"),
  }),
  summary: (input) => input.path,
  async run(input, ctx) {
    const { file, created } = await writeFileAtPath(ctx.services, ctx.ownerId, ctx.projectId, input.path, input.content);
    await ctx.syncFile(file.path, input.content);
    ctx.step(`${created ? "Created" : "Edited"} ${file.path}`, "completed");
    return { result: `${created ? "Created" : "Updated"} ${file.path} (${file.size} bytes).` };
  },
});
