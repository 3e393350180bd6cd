/**
 * edit_file: one exact search/replace in a project file. The search text must occur exactly once, so an
 * edit never lands in the wrong place; otherwise the model is told why and what to do.
 */
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { requireTextFile } from "./project-text-file";
import { toolPathSchema } from "./tool-path";

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) count++;
  return count;
}

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Replace one exact piece of text in an existing file. `search` must match the file's current text exactly " +
    "(whitespace included) and occur exactly once; include surrounding lines to make it unique.",
  input: z.object({
    path: toolPathSchema,
    search: z.string().min(1, "search must not be empty").describe("Exact text to find (must occur exactly once)"),
    replace: z.string().describe("Text to put in its place"),
  }),
  summary: (input) => input.path,
  async run(input, ctx) {
    const content = await requireTextFile(ctx, input.path);
    const count = countOccurrences(content, input.search);
    if (count === 0) {
      throw new ToolError(
        `The search text was not found in ${input.path}. Nothing was changed. Read the file again with read_file and copy the exact text, whitespace included.`,
      );
    }
    if (count > 1) {
      throw new ToolError(
        `The search text appears ${count} times in ${input.path}, so the edit is ambiguous. Nothing was changed. Include more surrounding lines so it matches exactly once.`,
      );
    }
    const index = content.indexOf(input.search);
    const updated = content.slice(0, index) + input.replace + content.slice(index + input.search.length);
    const file = await ctx.files.write(input.path, updated);
    ctx.step(`Edited ${file.path}`, "completed");
    const line = content.slice(0, index).split("\n").length;
    return { result: `Edited ${file.path} at line ${line} (${file.size} bytes now).` };
  },
});
