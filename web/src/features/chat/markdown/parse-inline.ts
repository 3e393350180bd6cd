/**
 * Inline Markdown → a small tree: code spans, bold, italic, strikethrough, links and bare URLs, hard
 * breaks. Only the tree is built here; markdown.tsx turns it into React elements, so model text never
 * reaches the DOM as HTML.
 *
 * @example
 * parseInline("Run **`npm start`** then open [the app](https://x.test)");
 */
export type Inline =
  | { t: "text"; v: string }
  | { t: "code"; v: string }
  | { t: "strong" | "em" | "del"; c: Inline[] }
  | { t: "link"; href: string; c: Inline[] }
  | { t: "br" };

const ESCAPABLE = new Set("\\`*_{}[]()#+-.!|~>");
const BARE_URL = /^https?:\/\/[^\s<>"'`]+/;
const WORD = /[\p{L}\p{N}]/u;

/** Links keep only schemes that cannot run script: http(s), mailto, and same-site paths or anchors. */
export function safeHref(raw: string): string | null {
  const href = raw.trim().replace(/^<(.*)>$/, "$1");
  if (/^(https?:|mailto:)/i.test(href)) return href;
  if (/^(\/(?!\/)|#|\.\.?\/)/.test(href)) return href;
  return null;
}

export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push({ t: "text", v: text });
    text = "";
  };
  const push = (node: Inline) => {
    flush();
    out.push(node);
  };

  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    const rest = src.slice(i);

    if (ch === "\\" && i + 1 < src.length) {
      const next = src[i + 1]!;
      if (next === "\n") {
        push({ t: "br" });
        i += 2;
        continue;
      }
      if (ESCAPABLE.has(next)) {
        text += next;
        i += 2;
        continue;
      }
    }

    if (ch === "\n") {
      push({ t: "br" });
      i++;
      continue;
    }

    if (ch === "`") {
      const run = /^`+/.exec(rest)![0];
      const close = src.indexOf(run, i + run.length);
      // The closing run must be exactly as long (not part of a longer one).
      if (close !== -1 && src[close + run.length] !== "`") {
        let code = src.slice(i + run.length, close).replace(/\n/g, " ");
        if (/^ .* $/.test(code) && code.trim()) code = code.slice(1, -1);
        push({ t: "code", v: code });
        i = close + run.length;
        continue;
      }
      text += run;
      i += run.length;
      continue;
    }

    if (ch === "[" || (ch === "!" && src[i + 1] === "[")) {
      const link = matchLink(src, ch === "!" ? i + 1 : i);
      if (link) {
        const href = safeHref(link.href);
        const label = parseInline(link.label || link.href);
        // Images in model text become links: nothing is fetched from an address the model chose.
        if (href) push({ t: "link", href, c: label });
        else {
          flush();
          out.push(...label);
        }
        i = link.end;
        continue;
      }
    }

    if ((ch === "h" || ch === "H") && (i === 0 || !WORD.test(src[i - 1]!))) {
      const m = BARE_URL.exec(rest);
      if (m) {
        // Trailing punctuation usually ends the sentence, not the URL.
        const url = m[0].replace(/[.,;:!?)\]]+$/, "");
        push({ t: "link", href: url, c: [{ t: "text", v: url }] });
        i += url.length;
        continue;
      }
    }

    if (ch === "*" || ch === "_" || ch === "~") {
      const emphasis = matchEmphasis(src, i);
      if (emphasis) {
        push({ t: emphasis.t, c: parseInline(emphasis.inner) });
        i = emphasis.end;
        continue;
      }
    }

    text += ch;
    i++;
  }
  flush();
  return out;
}

function matchLink(src: string, open: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let j = open;
  for (; j < src.length; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) break;
  }
  if (j >= src.length || src[j + 1] !== "(") return null;
  const close = src.indexOf(")", j + 2);
  if (close === -1) return null;
  const target = src.slice(j + 2, close).trim();
  if (/\s/.test(target.replace(/\s+"[^"]*"$/, ""))) return null;
  return { label: src.slice(open + 1, j), href: target.replace(/\s+"[^"]*"$/, ""), end: close + 1 };
}

function matchEmphasis(src: string, i: number): { t: "strong" | "em" | "del"; inner: string; end: number } | null {
  const ch = src[i]!;
  const double = src[i + 1] === ch;
  if (ch === "~" && !double) return null;
  const marker = double ? ch + ch : ch;
  const start = i + marker.length;
  const first = src[start];
  if (!first || /\s/.test(first)) return null;
  // Underscores inside words (snake_case) are not emphasis.
  if (ch === "_" && i > 0 && WORD.test(src[i - 1]!)) return null;

  let j = start;
  while ((j = src.indexOf(marker, j + 1)) !== -1) {
    // A single '*' must not be half of a '**'.
    if (!double && src[j + 1] === ch) {
      j++;
      continue;
    }
    if (/\s/.test(src[j - 1]!)) continue;
    if (ch === "_" && j + 1 < src.length && WORD.test(src[j + 1]!)) continue;
    const inner = src.slice(start, j);
    if (inner.includes("\n\n")) return null;
    return { t: ch === "~" ? "del" : double ? "strong" : "em", inner, end: j + marker.length };
  }
  return null;
}
