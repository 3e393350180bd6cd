/**
 * The path a tool accepts: the project's relative POSIX rules (shared/file-path.ts), forgiving the
 * leading "./" or "/" models often write ("/src/App.tsx" means the project's src/App.tsx).
 */
import { filePathSchema } from "@shared/file-path";
import { z } from "zod";

export const toolPathSchema = z
  .string()
  .transform((p) => p.trim().replace(/^(\.\/|\/)+/, ""))
  .pipe(filePathSchema)
  .describe("Path relative to the project root, e.g. src/App.tsx");
