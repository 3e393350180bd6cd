/** list_files: the project's stored files (path and size), optionally under one folder. */
import { z } from "zod";
import { defineTool } from "./define-tool";

const MAX_LISTED = 500;

export const listFilesTool = defineTool({
  name: "list_files",
  description: "List the project's files with their sizes in bytes (node_modules and build output are not stored).",
  input: z.object({
    folder: z.string().optional().describe("Only files under this folder, e.g. src"),
  }),
  summary: (input) => input.folder ?? "project files",
  async run(input, ctx) {
    const prefix = input.folder
      ?.trim()
      .replace(/^(\.\/|\/)+/, "")
      .replace(/\/+$/, "");
    const files = (await ctx.files.list()).filter((f) => !prefix || f.path.startsWith(`${prefix}/`)).sort((a, b) => a.path.localeCompare(b.path));
    if (files.length === 0) return { result: prefix ? `No files under ${prefix}/.` : "The project has no files yet." };
    const lines = files.slice(0, MAX_LISTED).map((f) => `${f.path} (${f.size} bytes)`);
    if (files.length > MAX_LISTED) lines.push(`… and ${files.length - MAX_LISTED} more`);
    return { result: `${files.length} file${files.length === 1 ? "" : "s"}:\n${lines.join("\n")}` };
  },
});
