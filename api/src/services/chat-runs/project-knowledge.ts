/**
 * Project knowledge: `AGENTS.md` at the project's root, read before every run and put into the system prompt,
 * capped so a long file cannot crowd out the conversation (the prompt says when it was cut).
 *
 * @example
 * const knowledge = await loadProjectKnowledge(ctx, access); // null when there is no AGENTS.md
 */
import type { ProjectKnowledge } from "../../agent/ports";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { readFileInProject } from "../files";

export const KNOWLEDGE_PATH = "AGENTS.md";
export const MAX_KNOWLEDGE_BYTES = 8 * 1024;

/** The text within `maxBytes` of UTF-8, ending at a line break when one is in its last quarter (never mid-character). */
export function capKnowledge(text: string, maxBytes = MAX_KNOWLEDGE_BYTES): ProjectKnowledge {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return { content: text, size: bytes.length, truncated: false };
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // back off to the start of a character
  let content = new TextDecoder().decode(bytes.subarray(0, end));
  const lastBreak = content.lastIndexOf("\n");
  if (lastBreak > content.length * 0.75) content = content.slice(0, lastBreak + 1);
  return { content, size: bytes.length, truncated: true };
}

/** The project's AGENTS.md, capped; null when it is missing, empty or binary. */
export async function loadProjectKnowledge(ctx: ServiceContext, access: ProjectAccess): Promise<ProjectKnowledge | null> {
  const file = await readFileInProject(ctx, access, KNOWLEDGE_PATH);
  if (!file || file.binary || !file.content.trim()) return null;
  return capKnowledge(file.content);
}
