/** Reads the project templates kept in api/templates (react, vite, node, fullstack). */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { z } from "zod";
import type { TemplateName } from "./types";

const TEMPLATES_DIR = join(import.meta.dir, "../../../templates");

const templateSchema = z.object({
  description: z.string(),
  workflowCommand: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  install: z.string(),
});
export type Template = z.infer<typeof templateSchema> & { name: TemplateName; files: { path: string; content: Uint8Array }[] };

export const TEMPLATE_NAMES = ["react", "vite", "node", "fullstack"] as const satisfies readonly TemplateName[];

export async function loadTemplate(name: TemplateName): Promise<Template> {
  const root = join(TEMPLATES_DIR, name);
  const meta = templateSchema.parse(JSON.parse(await readFile(join(root, "template.json"), "utf8")));
  const filesRoot = join(root, "files");
  const entries = await readdir(filesRoot, { recursive: true, withFileTypes: true });
  const files = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const abs = join(e.parentPath, e.name);
        return { path: relative(filesRoot, abs), content: new Uint8Array(await readFile(abs)) };
      }),
  );
  return { ...meta, name, files: files.sort((a, b) => a.path.localeCompare(b.path)) };
}
