/**
 * create_boilerplate: starts the project from one of the templates kept in the repository (react, vite,
 * node, fullstack): files written, dependencies installed, workflow command set, and the app started so the Preview
 * shows it at once.
 */
import { z } from "zod";
import { TEMPLATE_NAMES } from "@shared/schemas/sandbox";
import { defineTool, ToolError, type ToolContext } from "./define-tool";

/** The most characters of template files put in the result; past it, files are named only (read_file shows them). */
const INLINE_CHARS = 12_000;

const LABEL = { react: "React", vite: "Vite", node: "Node.js", fullstack: "full-stack" } as const;

export const createBoilerplateTool = defineTool({
  name: "create_boilerplate",
  description:
    "Start the project from a template: react (React + Vite + TypeScript), vite (plain Vite + TypeScript), node " +
    "(a Node.js HTTP server) or fullstack (React + Vite and a Node.js API on one port that keeps data in the project's " +
    "PostgreSQL database through DATABASE_URL, with migrations in db/migrations; use it when the app must remember data). Writes the files, installs dependencies, sets the workflow command and starts the " +
    "app. Use it once, at the start of a new project, then edit the files. It refuses a project that already has " +
    "files unless overwrite is true (only when the user asked to start over).",
  input: z.object({
    template: z.enum(TEMPLATE_NAMES),
    overwrite: z.boolean().optional().describe("Replace a project that already has files (only when the user asked to start over)"),
  }),
  summary: (input) => `${input.template} template`,
  async run(input, ctx) {
    if (!ctx.sandbox) throw new ToolError("Sandboxes are not available on this server, so templates cannot be applied.");
    if (!input.overwrite) {
      // AGENTS.md alone is the user's notes for the app to come, not an app to overwrite (the template keeps it).
      const existing = (await ctx.files.list()).filter((f) => f.path !== "AGENTS.md");
      if (existing.length > 0) {
        const sample = existing
          .slice(0, 5)
          .map((f) => f.path)
          .join(", ");
        throw new ToolError(
          `The project already has ${existing.length} file${existing.length === 1 ? "" : "s"} (${sample}${existing.length > 5 ? ", …" : ""}), and a template ` +
            "would overwrite them. Nothing was changed. Work with the existing files (list_files, read_file), or call " +
            "create_boilerplate again with overwrite: true only if the user asked to start over.",
        );
      }
    }
    const label = LABEL[input.template];
    ctx.step(`Creating ${label} app from the ${input.template} template`, "in_progress");
    const applied = await ctx.sandbox.applyTemplate(input.template);
    ctx.step(`Created ${label} app (${applied.filesWritten} files)`, "completed");
    ctx.step("Installed dependencies", "completed");
    ctx.step(`Configured workflow: ${applied.workflowCommand}`, "completed");
    // applyTemplate starts the workflow in the background.
    ctx.step(`Started: ${applied.workflowCommand}`, "completed");
    return {
      result:
        `Created a ${label} app from the ${input.template} template: ${applied.filesWritten} files written, ` +
        `dependencies installed, and the app started in the background with \`${applied.workflowCommand}\` (also recorded as the ` +
        `workflow command); do not start it a second time. ${await filesInline(ctx)}`,
      summary: `${label} app (${applied.filesWritten} files)`,
    };
  },
});

/** The project's files as the template left them, inline: the model edits them without listing and reading them first. */
async function filesInline(ctx: ToolContext): Promise<string> {
  const files = (await ctx.files.list()).sort((a, b) => a.path.localeCompare(b.path));
  const shown: string[] = [];
  const named: string[] = [];
  let room = INLINE_CHARS;
  for (const f of files) {
    const file = f.size <= room ? await ctx.files.read(f.path) : null;
    if (!file || file.binary || file.content.length > room) {
      named.push(f.path);
      continue;
    }
    room -= file.content.length;
    shown.push(`--- ${f.path} ---\n${file.content.trimEnd()}`);
  }
  const rest = named.length ? `\n\nAlso written (read_file shows them): ${named.join(", ")}.` : "";
  return `Its files, as written (there is no need to read them again; edit them as they are):\n\n${shown.join("\n\n")}${rest}`;
}
