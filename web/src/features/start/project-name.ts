/**
 * A short project name from the first prompt: the request's object without the leading "Build me a…", cut
 * at the first "with / that / for…" clause and at five words. Renamable later in the project's settings.
 *
 * @example
 * projectNameFromPrompt("Build a React todo app with local storage"); // "React todo app"
 */
import { MAX_PROJECT_NAME_LENGTH } from "@shared/schemas/project";

const LEAD =
  /^(please\s+)?(can you\s+|could you\s+|i want( you)? to\s+|i'd like( you)? to\s+|let's\s+)?(build|create|make|write|design|generate|develop|code|set up|start)\s+(me\s+|us\s+)?(a|an|the|some|my)?\s*/i;
const CLAUSE = /\s+(with|that|which|where|using|to|for|so|where|in which|including|and then)\s+.*$/i;
const MAX_WORDS = 5;
const MAX_CHARS = 40;

export function projectNameFromPrompt(prompt: string, fallback = "New project"): string {
  const firstLine = prompt.trim().split(/[\n!?:;]|\.(?:\s|$)/)[0] ?? "";
  const object = firstLine
    .replace(LEAD, "")
    .replace(CLAUSE, "")
    .replace(/[,"'`()[\]{}*_#]/g, " ")
    .trim();
  const words = object.split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  let name = words.join(" ");
  if (name.length > MAX_CHARS) name = name.slice(0, MAX_CHARS).replace(/\s+\S*$/, "") || name.slice(0, MAX_CHARS);
  if (!name) return fallback;
  return (name[0]!.toUpperCase() + name.slice(1)).slice(0, MAX_PROJECT_NAME_LENGTH);
}
