/**
 * Finding an edit's place when its search text is not in the file exactly: a line-by-line match that
 * ignores whitespace, then one that also ignores punctuation style (curly quotes, dashes, NBSP), then for
 * blocks of three or more lines one placed by its first and last lines (the replacement re-indented to the
 * file's indentation); otherwise the lines nearest to what the model meant, with their numbers.
 */
/** `how`: what was ignored to find it, for the note the model reads. */
export type LooseMatch = { start: number; end: number; replace: string; how?: "whitespace" | "punctuation" | "anchors" };

const squash = (line: string) => line.trim().replace(/\s+/g, " ");

/**
 * Typographic punctuation as plain ASCII: models (and text pasted from documents) write curly quotes, en and em
 * dashes and non-breaking spaces where the file has plain ones, or the other way round.
 */
export const plainPunctuation = (text: string) =>
  text
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2007\u202F\u2009\u200A]/g, " ")
    .replace(/\u2026/g, "...");

const squashPlain = (line: string) => squash(plainPunctuation(line));

/** First and last lines of a block must match, and its middle lines be at least this similar on average. */
const ANCHOR_MIDDLE_SIMILARITY = 0.6;

function trimBlankEnds(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a]!.trim()) a++;
  while (b > a && !lines[b - 1]!.trim()) b--;
  return lines.slice(a, b);
}

export function findLoose(
  content: string,
  search: string,
  replace: string,
): { kind: "one"; match: LooseMatch } | { kind: "none" } | { kind: "ambiguous"; count: number; lines: number[] } {
  const lines = content.split("\n");
  const searchLines = trimBlankEnds(search.split("\n"));
  if (searchLines.length === 0) return { kind: "none" };
  const scan = (accept: (at: number) => boolean): number[] => {
    const found: number[] = [];
    for (let i = 0; i + searchLines.length <= lines.length; i++) if (accept(i)) found.push(i);
    return found;
  };
  const sameLines = (norm: (line: string) => string) => {
    const wanted = searchLines.map(norm);
    return (i: number) => wanted.every((w, j) => norm(lines[i + j]!) === w);
  };
  const n = searchLines.length;
  const attempts: [LooseMatch["how"], (i: number) => boolean][] = [
    ["whitespace", sameLines(squash)],
    ["punctuation", sameLines(squashPlain)],
  ];
  if (n >= 3) {
    const first = squashPlain(searchLines[0]!);
    const last = squashPlain(searchLines[n - 1]!);
    attempts.push([
      "anchors",
      (i) => {
        if (squashPlain(lines[i]!) !== first || squashPlain(lines[i + n - 1]!) !== last) return false;
        let sum = 0;
        for (let j = 1; j < n - 1; j++) sum += similarity(squashPlain(lines[i + j]!), squashPlain(searchLines[j]!));
        return sum / (n - 2) >= ANCHOR_MIDDLE_SIMILARITY;
      },
    ]);
  }
  for (const [how, accept] of attempts) {
    const found = scan(accept);
    if (found.length > 1) return { kind: "ambiguous", count: found.length, lines: found };
    if (found.length === 0) continue;
    const at = found[0]!;
    const offsets = [0];
    for (const line of lines) offsets.push(offsets.at(-1)! + line.length + 1);
    return { kind: "one", match: { start: offsets[at]!, end: offsets[at + n]! - 1, replace: reindent(replace, search, lines[at]!), how } };
  }
  return { kind: "none" };
}

/** The given (0-based) lines of the file, numbered from 1, for the model to pick from. At most `max`. */
export function numberedLines(content: string, at: number[], max = 5): string {
  const lines = content.split("\n");
  const shown = at.slice(0, max).map((i) => `${i + 1}\t${lines[i] ?? ""}`);
  return shown.join("\n") + (at.length > max ? `\n… and ${at.length - max} more` : "");
}

/** The replacement with the search's indentation swapped for the file's (the model's was off). */
function reindent(replace: string, search: string, fileLine: string): string {
  const searchFirst = search.split("\n").find((l) => l.trim()) ?? "";
  const had = /^\s*/.exec(searchFirst)![0];
  const has = /^\s*/.exec(fileLine)![0];
  const body = trimBlankEnds(replace.split("\n"));
  if (had === has) return body.join("\n");
  return body.map((l) => (l.startsWith(had) ? has + l.slice(had.length) : l.trim() ? has + l.trimStart() : l)).join("\n");
}

/** Similarity of two lines by shared character pairs (0…1). */
function similarity(a: string, b: string): number {
  const pairs = (s: string) => {
    const m = new Map<string, number>();
    for (let i = 0; i < s.length - 1; i++) m.set(s.slice(i, i + 2), (m.get(s.slice(i, i + 2)) ?? 0) + 1);
    return m;
  };
  const pa = pairs(a);
  const pb = pairs(b);
  let shared = 0;
  for (const [k, n] of pa) shared += Math.min(n, pb.get(k) ?? 0);
  const total = Math.max(1, a.length - 1 + b.length - 1);
  return (2 * shared) / total;
}

/** The file's lines nearest to the search text (its first non-blank line decides where), numbered. */
export function closestLines(content: string, search: string): string {
  const lines = content.split("\n");
  const wanted = trimBlankEnds(search.split("\n"));
  const probe = squash(wanted[0] ?? "");
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < lines.length; i++) {
    let score = similarity(squash(lines[i]!), probe);
    // Later lines of the search count too, when the first line alone is ambiguous.
    if (wanted.length > 1 && i + 1 < lines.length) score += 0.5 * similarity(squash(lines[i + 1]!), squash(wanted[1]!));
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  const from = Math.max(0, best - 2);
  const to = Math.min(lines.length, best + Math.max(wanted.length, 1) + 2);
  const width = String(to).length;
  return lines
    .slice(from, to)
    .map((l, k) => `${String(from + k + 1).padStart(width)}\t${l}`)
    .join("\n");
}
