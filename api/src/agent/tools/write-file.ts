/**
 * write_file: creates a project file or replaces its whole content (stored; the sandbox sees it at once). A
 * rewrite holding a placeholder for the code it drops ("rest of the code", a history stub) is refused.
 */
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { placeholderIn } from "./placeholder-content";
import { toolPathSchema } from "./tool-path";

export const writeFileTool = defineTool({
  name: "write_file",
  description:
    "Create a file, or replace the whole content of an existing one. Parent folders are created as needed. " +
    "For a small change to a large file prefer edit_file. A file too large for one reply can be written in parts: " +
    "the first with write_file, the rest with append: true.",
  input: z.object({
    path: toolPathSchema,
    content: z.string().describe("The complete new content of the file (or, with append, the part to add at its end)"),
    append: z.boolean().optional().describe("Add content to the end of the file instead of replacing it"),
  }),
  summary: (input) => input.path,
  async run(input, ctx) {
    if (input.append) {
      const existing = await ctx.files.read(input.path);
      if (existing?.binary) throw new ToolError(`${input.path} is a binary file; nothing can be appended to it.`);
      const file = await ctx.files.write(input.path, (existing?.content ?? "") + input.content);
      ctx.step(`${file.created ? "Created" : "Edited"} ${file.path}`, "completed");
      return { result: `Appended ${new TextEncoder().encode(input.content).length} bytes to ${file.path} (${file.size} bytes now).` };
    }
    const existing = await ctx.files.read(input.path);
    const placeholder = existing && !existing.binary ? placeholderIn(input.content, existing.content) : null;
    if (placeholder) {
      throw new ToolError(
        `Refused: the new content for ${input.path} holds a placeholder ("${placeholder}") where code should be, and is much shorter ` +
          `than the file it would replace (${input.content.length} characters against ${existing!.content.length}). Nothing was changed. ` +
          "Write the complete content of the file, or change only the parts you mean to with edit_file.",
      );
    }
    const { created, ...file } = await ctx.files.write(input.path, input.content);
    ctx.step(`${created ? "Created" : "Edited"} ${file.path}`, "completed");
    return { result: `${created ? "Created" : "Updated"} ${file.path} (${file.size} bytes).` };
  },
});
