/** read_file: the text of a project file, for the model to read before editing it. */
import { z } from "zod";
import { clip, defineTool } from "./define-tool";
import { requireTextFile } from "./project-text-file";
import { toolPathSchema } from "./tool-path";

export const readFileTool = defineTool({
  name: "read_file",
  description: "Read the current content of a project file.",
  input: z.object({ path: toolPathSchema }),
  summary: (input) => input.path,
  async run(input, ctx) {
    const content = await requireTextFile(ctx, input.path);
    return { result: content.length === 0 ? `(${input.path} is empty)` : clip(content, 40_000) };
  },
});
