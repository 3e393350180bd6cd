/**
 * Finding an edit's place when its search text is not in the file exactly: a line-by-line match that
 * ignores whitespace (the replacement re-indented to the file's indentation), and otherwise the lines
 * nearest to what the model meant, with their numbers, so it can correct its search.
 */
export type LooseMatch = { start: number; end: number; replace: string };

const squash = (line: string) => line.trim().replace(/\s+/g, " ");

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
): { kind: "one"; match: LooseMatch } | { kind: "none" } | { kind: "ambiguous"; count: number } {
  const lines = content.split("\n");
  const wanted = trimBlankEnds(search.split("\n")).map(squash);
  if (wanted.length === 0) return { kind: "none" };
  const found: number[] = [];
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    let ok = true;
    for (let j = 0; j < wanted.length && ok; j++) ok = squash(lines[i + j]!) === wanted[j];
    if (ok) found.push(i);
  }
  if (found.length === 0) return { kind: "none" };
  if (found.length > 1) return { kind: "ambiguous", count: found.length };
  const first = found[0]!;
  const offsets = [0];
  for (const line of lines) offsets.push(offsets.at(-1)! + line.length + 1);
  const start = offsets[first]!;
  const end = offsets[first + wanted.length]! - 1;
  return { kind: "one", match: { start, end, replace: reindent(replace, search, lines[first]!) } };
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
