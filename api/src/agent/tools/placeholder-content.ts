/**
 * Placeholders a model writes instead of code ("// ... rest of the code ...", "content omitted", a stub it
 * copied from its own trimmed history): written over a real file they would delete the code they stand for.
 */
import { HISTORY_STUB_PHRASES } from "../context-window";

const MARKERS: RegExp[] = [
  /\brest of (?:the )?(?:code|file|component|implementation|content|functions?|methods?|styles?)\b/i,
  /\b(?:content|code|implementation|lines?|details?) (?:omitted|elided|unchanged|remains? (?:the )?same)\b/i,
  /(?:\.\.\.|…)\s*(?:existing|previous|remaining|unchanged|other|same) (?:code|content|lines|imports|styles|functions)\b/i,
  ...HISTORY_STUB_PHRASES.map((phrase) => new RegExp(phrase.replaceAll(" ", "\\s+"), "i")),
];

/** A new content this much shorter than the file it replaces, holding a placeholder, is refused. */
const SHORTER_THAN = 0.6;

/** The placeholder a rewrite holds, when it is also much shorter than the file it replaces; else null. */
export function placeholderIn(content: string, replaces: string): string | null {
  if (content.length >= replaces.length * SHORTER_THAN) return null;
  for (const marker of MARKERS) {
    const found = marker.exec(content);
    if (found) return found[0];
  }
  return null;
}
