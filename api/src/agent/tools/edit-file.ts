/**
 * edit_file: a list of search/replace edits in one project file, applied in order and written once (all
 * or nothing). Each search is matched exactly and must occur once; when the exact text is not there, looser
 * matches are tried (whitespace, punctuation style, a block's first and last lines: `edit-match.ts`), since
 * models often get those wrong. An edit whose replacement is already there counts as applied (a model that
 * repeats an edit after it landed); otherwise the model gets the nearest or the candidate lines, numbered,
 * and after repeated failures on one file the advice to rewrite it whole.
 */
import { z } from "zod";
import { defineTool, ToolError, type ToolContext, type ToolOutput } from "./define-tool";
import { closestLines, findLoose, numberedLines, type LooseMatch } from "./edit-match";
import { requireTextFile } from "./project-text-file";
import { toolPathSchema } from "./tool-path";

/** Where `search` starts in `text`, every time (non-overlapping). */
function occurrences(text: string, search: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) at.push(i);
  return at;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length - 1;

/** Is `replace` already in the file (exactly, or as loosely as a search would be matched)? */
function alreadyThere(content: string, replace: string): boolean {
  if (!replace.trim()) return false;
  return content.includes(replace) || findLoose(content, replace, replace).kind !== "none";
}

/** Failed edits per file in each run (keyed by the run's tool context, which lives as long as the run). */
const failures = new WeakMap<object, Map<string, number>>();
/** From this many failed edits of one file on, the model is told to rewrite it whole instead. */
const REWRITE_AFTER_FAILURES = 2;

const NOTES: Record<NonNullable<LooseMatch["how"]>, string> = {
  whitespace: "matched ignoring whitespace",
  punctuation: "matched ignoring whitespace and punctuation style (quotes, dashes, spaces)",
  anchors: "matched by its first and last lines (lines between differed; check the result)",
};

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
    try {
      return await applyEdits(input, ctx);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      const perFile = failures.get(ctx) ?? new Map<string, number>();
      failures.set(ctx, perFile);
      const count = (perFile.get(input.path) ?? 0) + 1;
      perFile.set(input.path, count);
      if (count < REWRITE_AFTER_FAILURES) throw error;
      throw new ToolError(
        `${error.message}\nEditing ${input.path} has failed ${count} times in this run: read_file it and rewrite the whole file with write_file instead of another edit.`,
      );
    }
  },
});

type EditInput = { path: string; edits?: { search: string; replace: string }[]; search?: string; replace?: string };

async function applyEdits(input: EditInput, ctx: ToolContext): Promise<ToolOutput> {
  const edits = input.edits ?? [{ search: input.search!, replace: input.replace! }];
  const original = await requireTextFile(ctx, input.path);
  let content = original;
  const notes: string[] = [];
  let applied = 0;
  let firstLine = 0;
  for (const [i, edit] of edits.entries()) {
    const which = edits.length > 1 ? `Edit ${i + 1} of ${edits.length}: ` : "";
    const say = (text: string) => (which ? which + text : text.charAt(0).toUpperCase() + text.slice(1));
    const exact = occurrences(content, edit.search);
    if (exact.length > 1) {
      throw new ToolError(
        say(
          `the search text appears ${exact.length} times in ${input.path}, so the edit is ambiguous. Nothing was changed. It starts on these lines:\n` +
            `${numberedLines(
              content,
              exact.map((at) => lineOf(content, at)),
            )}\nInclude more surrounding lines so it matches exactly once.`,
        ),
      );
    }
    let match: LooseMatch | null;
    if (exact.length === 1) {
      match = { start: exact[0]!, end: exact[0]! + edit.search.length, replace: edit.replace };
    } else {
      const loose = findLoose(content, edit.search, edit.replace);
      if (loose.kind === "ambiguous") {
        throw new ToolError(
          say(
            `the search text was not found exactly, and matched loosely it fits ${loose.count} places in ${input.path}. Nothing was changed. They start on these lines:\n` +
              `${numberedLines(content, loose.lines)}\nInclude more surrounding lines.`,
          ),
        );
      }
      if (loose.kind === "none") {
        if (alreadyThere(content, edit.replace)) {
          notes.push(`edit ${i + 1} was already applied (the file has its replacement, not its search text)`);
          continue;
        }
        throw new ToolError(
          say(
            `the search text was not found in ${input.path}, not even ignoring whitespace. Nothing was changed. ` +
              `The closest lines in the file are:\n${closestLines(content, edit.search)}\nCopy the exact text from the file (without the line numbers) and try again.`,
          ),
        );
      }
      match = loose.match;
      notes.push(`edit ${i + 1} ${NOTES[match.how ?? "whitespace"]}`);
    }
    if (applied++ === 0) firstLine = lineOf(content, match.start) + 1;
    content = content.slice(0, match.start) + match.replace + content.slice(match.end);
  }
  if (applied === 0) {
    return {
      result: `Nothing to change in ${input.path}: ${edits.length > 1 ? "every edit was" : "the edit was"} already applied (the file has the replacement text and not the search text).`,
    };
  }
  const file = await ctx.files.write(input.path, content);
  ctx.step(`Edited ${file.path}`, "completed");
  const what = edits.length > 1 ? `${edits.length} edits` : `at line ${firstLine}`;
  return { result: `Edited ${file.path} ${what} (${file.size} bytes now)${notes.length ? `; ${notes.join(", ")}` : ""}.` };
}
