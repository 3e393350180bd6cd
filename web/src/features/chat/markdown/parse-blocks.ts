/**
 * Block-level Markdown → a small tree: paragraphs, headings, fenced and indented code, lists (nested by
 * indentation), block quotes, rules and pipe tables. Enough for what chat models write; anything it does
 * not know stays text. Raw HTML is never interpreted: it is text like any other.
 *
 * @example
 * parseMarkdown("## Plan\n\n1. Create `App.tsx`\n2. Run it\n\n```ts\nconsole.log(1)\n```");
 */
import { type Inline, parseInline } from "./parse-inline";

export type Align = "left" | "center" | "right" | null;

export type Block =
  | { t: "p"; c: Inline[] }
  | { t: "h"; level: 1 | 2 | 3 | 4 | 5 | 6; c: Inline[] }
  | { t: "code"; lang: string; v: string }
  | { t: "list"; ordered: boolean; start: number; items: Block[][] }
  | { t: "quote"; c: Block[] }
  | { t: "hr" }
  | { t: "table"; align: Align[]; head: Inline[][]; rows: Inline[][][] };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(\s+|$)/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const isBlank = (line: string) => line.trim() === "";

export function parseMarkdown(src: string): Block[] {
  return parseLines(src.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n"));
}

function parseLines(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const indent = line.length - line.trimStart().length;
      const body: string[] = [];
      i++;
      while (i < lines.length && !isClosingFence(lines[i]!, marker)) {
        body.push(lines[i]!.replace(new RegExp(`^ {0,${indent}}`), ""));
        i++;
      }
      i++; // the closing fence (or the end: an unclosed fence runs to the end, as while streaming)
      blocks.push({ t: "code", lang: fence[2] ?? "", v: body.join("\n") });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ t: "h", level: heading[1]!.length as 1, c: parseInline(heading[2] ?? "") });
      i++;
      continue;
    }

    if (RULE.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }

    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !isBlank(lines[i]!) && (QUOTE.test(lines[i]!) || !startsBlock(lines[i]!))) {
        inner.push(lines[i]!.replace(QUOTE, ""));
        i++;
      }
      blocks.push({ t: "quote", c: parseLines(inner) });
      continue;
    }

    if (LIST_ITEM.test(line)) {
      const parsed = parseList(lines, i);
      blocks.push(parsed.block);
      i = parsed.next;
      continue;
    }

    if (line.includes("|") && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]!) && lines[i + 1]!.includes("-")) {
      const head = splitRow(line);
      const align = splitRow(lines[i + 1]!).map(toAlign);
      if (head.length === align.length) {
        i += 2;
        const rows: Inline[][][] = [];
        while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes("|")) {
          const cells = splitRow(lines[i]!);
          rows.push(head.map((_, k) => parseInline(cells[k] ?? "")));
          i++;
        }
        blocks.push({ t: "table", align, head: head.map(parseInline), rows });
        continue;
      }
    }

    if (/^ {4}/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (/^ {4}/.test(lines[i]!) || isBlank(lines[i]!))) {
        body.push(lines[i]!.slice(4));
        i++;
      }
      while (body.length && isBlank(body[body.length - 1]!)) body.pop();
      blocks.push({ t: "code", lang: "", v: body.join("\n") });
      continue;
    }

    const para: string[] = [];
    while (i < lines.length && !isBlank(lines[i]!) && (para.length === 0 || !startsBlock(lines[i]!))) {
      para.push(lines[i]!.trim());
      i++;
    }
    blocks.push({ t: "p", c: parseInline(para.join("\n")) });
  }
  return blocks;
}

function isClosingFence(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= marker.length && trimmed[0] === marker[0] && new RegExp(`^\\${marker[0]}+$`).test(trimmed);
}

/** Does this line open a block that interrupts a paragraph? */
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

function parseList(lines: string[], from: number): { block: Block; next: number } {
  const first = LIST_ITEM.exec(lines[from]!)!;
  const ordered = /\d/.test(first[2]!);
  const delimiter = first[2]!.slice(-1);
  const items: Block[][] = [];
  let i = from;

  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]!);
    if (!m || /\d/.test(m[2]!) !== ordered || m[2]!.slice(-1) !== delimiter) break;
    // Continuation lines belong to the item when indented past the marker (or lazily, without a gap).
    const contentIndent = m[1]!.length + m[2]!.length + Math.min(m[3]!.length || 1, 4);
    const body = [lines[i]!.slice(m[0].length)];
    i++;
    let sawBlank = false;
    while (i < lines.length) {
      const line = lines[i]!;
      if (isBlank(line)) {
        sawBlank = true;
        body.push("");
        i++;
        continue;
      }
      const indent = line.length - line.trimStart().length;
      if (indent >= contentIndent || (indent > m[1]!.length && LIST_ITEM.test(line.trimStart()))) {
        body.push(line.slice(Math.min(indent, contentIndent)));
      } else if (!sawBlank && !startsBlock(line)) {
        body.push(line.trim());
      } else break;
      sawBlank = false;
      i++;
    }
    while (body.length && isBlank(body[body.length - 1]!)) body.pop();
    items.push(parseLines(body));
    // A blank line followed by something that is not the next item ends the list.
    if (sawBlank && (i >= lines.length || !LIST_ITEM.test(lines[i]!))) break;
  }
  return { block: { t: "list", ordered, start: ordered ? Number.parseInt(first[2]!, 10) : 1, items }, next: i };
}

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\" && row[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (row[i] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += row[i];
  }
  cells.push(cell.trim());
  return cells;
}

function toAlign(cell: string): Align {
  const left = cell.startsWith(":");
  const right = cell.endsWith(":");
  return left && right ? "center" : right ? "right" : left ? "left" : null;
}
