import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { Markdown } from "./markdown";
import { parseMarkdown } from "./parse-blocks";
import { parseInline, safeHref } from "./parse-inline";

const html = (text: string) => renderToStaticMarkup(<Markdown text={text} />);

describe("safety", () => {
  test("a <script> in model text renders as text", () => {
    const out = html('Hello <script>alert("x")</script> world');
    expect(out).not.toContain("<script");
    expect(out).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  test("HTML attributes and tags stay text everywhere: paragraphs, code, lists, tables, links", () => {
    const out = html(
      [
        '<img src=x onerror="alert(1)">',
        "`<b>code</b>`",
        "```html\n<iframe src=javascript:alert(1)></iframe>\n```",
        "- <svg onload=alert(1)>",
        "| a | b |\n|---|---|\n| <i>x</i> | y |",
        "[<b>label</b>](https://example.com)",
      ].join("\n\n"),
    );
    // (The only real <svg> is the code block's copy icon.)
    expect(out).not.toMatch(/<(img|iframe)[\s>]|<svg onload|<b>|<i>/);
    expect(out).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  test("javascript:, data: and protocol-relative links are not links", () => {
    for (const href of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<script>", "//evil.test/x", "vbscript:x"]) {
      expect(safeHref(href)).toBeNull();
      expect(html(`[click](${href})`)).not.toContain("<a");
    }
    expect(html("[docs](https://example.com/a)")).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer"');
    expect(safeHref("/api/x")).toBe("/api/x");
    expect(safeHref("mailto:a@b.c")).toBe("mailto:a@b.c");
  });

  test("an image in model text becomes a link, never an <img>", () => {
    const out = html("![diagram](https://example.com/d.png)");
    expect(out).not.toContain("<img");
    expect(out).toContain('href="https://example.com/d.png"');
  });
});

describe("blocks", () => {
  test("paragraphs, headings, rules and quotes", () => {
    expect(parseMarkdown("# Title\n\nOne\ntwo\n\n---\n\n> quoted")).toEqual([
      { t: "h", level: 1, c: [{ t: "text", v: "Title" }] },
      { t: "p", c: [{ t: "text", v: "One" }, { t: "br" }, { t: "text", v: "two" }] },
      { t: "hr" },
      { t: "quote", c: [{ t: "p", c: [{ t: "text", v: "quoted" }] }] },
    ]);
  });

  test("fenced code keeps its text and language; an unclosed fence runs to the end", () => {
    expect(parseMarkdown("```tsx\nconst a = <b>1</b>;\n  **not bold**\n```\nafter")).toEqual([
      { t: "code", lang: "tsx", v: "const a = <b>1</b>;\n  **not bold**" },
      { t: "p", c: [{ t: "text", v: "after" }] },
    ]);
    expect(parseMarkdown("~~~\nopen")).toEqual([{ t: "code", lang: "", v: "open" }]);
    expect(html("```js\nlet x = 1;\n```")).toContain("<pre");
  });

  test("lists: bullets, numbers with their start, nesting and continuation lines", () => {
    const [list] = parseMarkdown("3. first\n   more\n4. second\n   - nested a\n   - nested b");
    expect(list).toMatchObject({ t: "list", ordered: true, start: 3 });
    if (list?.t !== "list") throw new Error("not a list");
    expect(list.items).toHaveLength(2);
    expect(list.items[0]).toEqual([{ t: "p", c: [{ t: "text", v: "first" }, { t: "br" }, { t: "text", v: "more" }] }]);
    expect(list.items[1]![1]).toMatchObject({ t: "list", ordered: false });
    const out = html("- a\n- b\n\ntext");
    expect(out).toContain("<ul");
    expect(out.match(/<li/g)).toHaveLength(2);
    expect(out).toContain("<p>text</p>");
  });

  test("pipe tables", () => {
    const [table] = parseMarkdown("| Name | Size |\n|:---|---:|\n| a.ts | 1 KB |");
    expect(table).toMatchObject({ t: "table", align: ["left", "right"] });
    expect(html("| a | b |\n|---|---|\n| 1 | 2 |")).toContain("<td");
  });
});

describe("inline", () => {
  test("bold, italic, strikethrough, code", () => {
    expect(parseInline("**b** *i* _j_ ~~d~~ `c`")).toEqual([
      { t: "strong", c: [{ t: "text", v: "b" }] },
      { t: "text", v: " " },
      { t: "em", c: [{ t: "text", v: "i" }] },
      { t: "text", v: " " },
      { t: "em", c: [{ t: "text", v: "j" }] },
      { t: "text", v: " " },
      { t: "del", c: [{ t: "text", v: "d" }] },
      { t: "text", v: " " },
      { t: "code", v: "c" },
    ]);
  });

  test("nested emphasis and code inside bold", () => {
    expect(parseInline("*a **b** c*")).toEqual([
      {
        t: "em",
        c: [
          { t: "text", v: "a " },
          { t: "strong", c: [{ t: "text", v: "b" }] },
          { t: "text", v: " c" },
        ],
      },
    ]);
    expect(parseInline("**run `npm start`**")).toEqual([
      {
        t: "strong",
        c: [
          { t: "text", v: "run " },
          { t: "code", v: "npm start" },
        ],
      },
    ]);
  });

  test("snake_case, lone stars and backslash escapes stay text", () => {
    expect(parseInline("my_var_name")).toEqual([{ t: "text", v: "my_var_name" }]);
    expect(parseInline("2 * 3 * 4")).toEqual([{ t: "text", v: "2 * 3 * 4" }]);
    expect(parseInline("\\*not em\\*")).toEqual([{ t: "text", v: "*not em*" }]);
  });

  test("code spans with backticks inside, and bare URLs", () => {
    expect(parseInline("`` a`b ``")).toEqual([{ t: "code", v: "a`b" }]);
    expect(parseInline("see https://example.com/x.")).toEqual([
      { t: "text", v: "see " },
      { t: "link", href: "https://example.com/x", c: [{ t: "text", v: "https://example.com/x" }] },
      { t: "text", v: "." },
    ]);
  });
});

describe("checklists", () => {
  test("'- [ ] step' and '- [x] step' render as checkboxes without the mark; other items stay bullets", () => {
    const out = html("- [ ] Add the list\n- [x] Read App.tsx\n- plain");
    expect(out).toContain('data-task="open"');
    expect(out).toContain('data-task="done"');
    expect(out).not.toContain("[ ]");
    expect(out).toContain("Add the list");
    expect(out).toContain('<li class="space-y-2 pl-1"><p>plain</p></li>');
  });
});
