/**
 * read_file: a project file's text with line numbers (so edits and errors can point at lines), whole or a
 * range of lines for large files. The numbers are a tab-separated prefix, not part of the file.
 */
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { requireTextFile } from "./project-text-file";
import { toolPathSchema } from "./tool-path";

/**
 * Past this many characters (or fewer, when the context window has less room) a read stops at a line end
 * and says how to read on; below the loop's own cut of a result, so a read is never cut in the middle.
 */
const MAX_CHARS = 16_000;

export const readFileTool = defineTool({
  name: "read_file",
  description:
    "Read a project file. Each line comes with its number (a prefix, not part of the file). For a large file give " +
    "startLine and endLine to read part of it.",
  input: z.object({
    path: toolPathSchema,
    startLine: z.number().int().min(1).optional().describe("First line to read (1-based)"),
    endLine: z.number().int().min(1).optional().describe("Last line to read (inclusive)"),
  }),
  summary: (input) => (input.startLine || input.endLine ? `${input.path}:${input.startLine ?? 1}-${input.endLine ?? "end"}` : input.path),
  async run(input, ctx) {
    const content = await requireTextFile(ctx, input.path);
    if (content.length === 0) return { result: `(${input.path} is empty)` };
    const lines = content.endsWith("\n") ? content.slice(0, -1).split("\n") : content.split("\n");
    const start = input.startLine ?? 1;
    const end = Math.min(input.endLine ?? lines.length, lines.length);
    if (start > lines.length) throw new ToolError(`${input.path} has ${lines.length} lines; startLine ${start} is past its end.`);
    if (end < start) throw new ToolError(`endLine (${end}) is before startLine (${start}).`);
    const width = String(end).length;
    const out: string[] = [];
    const max = Math.min(MAX_CHARS, ctx.resultChars?.() ?? MAX_CHARS);
    let chars = 0;
    let last = start - 1;
    for (let n = start; n <= end; n++) {
      const line = `${String(n).padStart(width)}\t${lines[n - 1]}`;
      if (chars + line.length > max && out.length > 0) break;
      out.push(line);
      chars += line.length + 1;
      last = n;
    }
    const partial = start > 1 || last < lines.length;
    const head = partial ? `${input.path}: lines ${start}-${last} of ${lines.length}\n` : "";
    const more = last < end ? `\n… (stopped at line ${last} of ${lines.length} to save space; read on with startLine: ${last + 1})` : "";
    return { result: `${head}${out.join("\n")}${more}` };
  },
});
