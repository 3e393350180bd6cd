/** write_file: creates a project file or replaces its whole content (stored; the sandbox sees it at once). */
import { z } from "zod";
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
    const { created, ...file } = await ctx.files.write(input.path, input.content);
    ctx.step(`${created ? "Created" : "Edited"} ${file.path}`, "completed");
    return { result: `${created ? "Created" : "Updated"} ${file.path} (${file.size} bytes).` };
  },
});
