/**
 * edit_file: a list of search/replace edits in one project file, applied in order and written once (all
 * or nothing). Each search is matched exactly and must occur once; when the exact text is not there, a
 * match that ignores whitespace differences (indentation, trailing spaces, tabs) is tried, since models
 * often get those wrong; failing that, the model gets the nearest lines with their numbers to correct
 * its search from.
 */
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { closestLines, findLoose, type LooseMatch } from "./edit-match";
import { requireTextFile } from "./project-text-file";
import { toolPathSchema } from "./tool-path";

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) count++;
  return count;
}

const editSchema = z.object({
  search: z.string().min(1, "search must not be empty").describe("Text to find (must occur exactly once; include surrounding lines to make it unique)"),
  replace: z.string().describe("Text to put in its place"),
});

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Change an existing file with one or more search/replace edits, applied in order (all or nothing). Each `search` " +
    "must match the file's current text and occur exactly once; copy it from read_file without the line numbers.",
  input: z
    .object({
      path: toolPathSchema,
      edits: z.array(editSchema).min(1).optional().describe("The edits, applied in order"),
      search: z.string().optional().describe("For a single edit: text to find (or use edits)"),
      replace: z.string().optional().describe("For a single edit: text to put in its place"),
    })
    .refine((i) => i.edits !== undefined || (i.search !== undefined && i.search !== "" && i.replace !== undefined), {
      message: "give edits: [{ search, replace }, …] (or search and replace for a single edit); search must not be empty",
    }),
  summary: (input) => input.path,
  async run(input, ctx) {
    const edits = input.edits ?? [{ search: input.search!, replace: input.replace! }];
    const original = await requireTextFile(ctx, input.path);
    let content = original;
    const notes: string[] = [];
    let firstLine = 0;
    for (const [i, edit] of edits.entries()) {
      const which = edits.length > 1 ? `Edit ${i + 1} of ${edits.length}: ` : "";
      const say = (text: string) => (which ? which + text : text.charAt(0).toUpperCase() + text.slice(1));
      const count = countOccurrences(content, edit.search);
      if (count > 1) {
        throw new ToolError(
          say(`the search text appears ${count} times in ${input.path}, so the edit is ambiguous. Nothing was changed. Include more surrounding lines so it matches exactly once.`),
        );
      }
      let match: LooseMatch | null;
      if (count === 1) {
        const index = content.indexOf(edit.search);
        match = { start: index, end: index + edit.search.length, replace: edit.replace };
      } else {
        const loose = findLoose(content, edit.search, edit.replace);
        if (loose.kind === "ambiguous") {
          throw new ToolError(
            say(`the search text was not found exactly, and ignoring whitespace it matches ${loose.count} places in ${input.path}. Nothing was changed. Include more surrounding lines.`),
          );
        }
        if (loose.kind === "none") {
          throw new ToolError(
            say(
              `the search text was not found in ${input.path}, not even ignoring whitespace. Nothing was changed. ` +
                `The closest lines in the file are:\n${closestLines(content, edit.search)}\nCopy the exact text from the file (without the line numbers) and try again.`,
            ),
          );
        }
        match = loose.match;
        notes.push(`edit ${i + 1} matched ignoring whitespace`);
      }
      const line = content.slice(0, match.start).split("\n").length;
      if (i === 0) firstLine = line;
      content = content.slice(0, match.start) + match.replace + content.slice(match.end);
    }
    const file = await ctx.files.write(input.path, content);
    ctx.step(`Edited ${file.path}`, "completed");
    const what = edits.length > 1 ? `${edits.length} edits` : `at line ${firstLine}`;
    return { result: `Edited ${file.path} ${what} (${file.size} bytes now)${notes.length ? `; ${notes.join(", ")}` : ""}.` };
  },
});
