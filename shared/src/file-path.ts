/**
 * Project file paths are relative POSIX paths. One rule set, used by the API (to refuse) and the web app
 * (to warn before sending), so both agree on what a legal path is.
 */
import { z } from "zod";

export const MAX_FILE_PATH_LENGTH = 512;
export const MAX_PATH_SEGMENT_LENGTH = 255;

// Characters that make a path read differently from what it is. Bidirectional controls reorder what is shown
// ("evil\u202Etxt.exe" reads "evilexe.txt"); invisible ones (zero-width, soft hyphen, BOM, word joiner, tags,
// Hangul fillers) make two names that look identical; odd spaces pass for plain ones.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\uffa0\ufe00-\ufe0e]/u;
// Stand-ins for '/', '\' and '.', which make "src∕..∕x" look like a path that climbs out.
const SEPARATOR_LOOKALIKE = /[\u2044\u2215\u2216\u29f5\u29f8\u29f9\ufe68\uff0f\uff3c\u2024\u2025\u2026\ufe52\uff0e\u3002\uff61]/u;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** A reason when `path` holds a character that disguises it, or null. */
function disguiseProblem(path: string): string | null {
  const bidi = BIDI.exec(path);
  if (bidi) return `File path contains a bidirectional control character (${codePoint(bidi[0])})`;
  const invisible = INVISIBLE.exec(path);
  if (invisible) return `File path contains an invisible character (${codePoint(invisible[0])})`;
  for (const c of path) {
    if (c !== " " && /[\p{Zs}\u2028\u2029]/u.test(c)) return `File path contains an unusual space (${codePoint(c)}); use a plain space`;
  }
  const lookalike = SEPARATOR_LOOKALIKE.exec(path);
  if (lookalike) return `File path contains a look-alike of '/', '\\' or '.' (${codePoint(lookalike[0])})`;
  // One word mixing Latin with Cyrillic or Greek letters is how "pаckage.json" (a Cyrillic а) passes for
  // another; "мир.txt" is two words, each in one script, and fine.
  for (const word of path.match(/\p{L}+/gu) ?? []) {
    if (LATIN.test(word) && CYRILLIC_OR_GREEK.test(word)) return `File path word "${word}" mixes Latin with Cyrillic or Greek letters (look-alike characters)`;
  }
  return null;
}

/** Returns a reason the path is illegal, or null when it is fine. */
export function filePathProblem(path: string): string | null {
  if (path.length === 0) return "File path is empty";
  if (path.length > MAX_FILE_PATH_LENGTH) return `File path is longer than ${MAX_FILE_PATH_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return "File path contains a control character";
  if (path.includes("\\")) return "File path must use '/' and not '\\'";
  if (path.startsWith("/")) return "File path must be relative, not absolute";
  const disguise = disguiseProblem(path);
  if (disguise) return disguise;
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") return "File path has an empty segment ('//' or a trailing '/')";
    if (segment === "." || segment === "..") return "File path must not contain '.' or '..' segments";
    if (segment.length > MAX_PATH_SEGMENT_LENGTH) return `A file path segment is longer than ${MAX_PATH_SEGMENT_LENGTH} characters`;
  }
  return null;
}

export const filePathSchema = z.string().superRefine((path, ctx) => {
  const problem = filePathProblem(path);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
