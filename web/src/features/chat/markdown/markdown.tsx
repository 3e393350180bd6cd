/**
 * Renders model-written Markdown as React elements from the parsed tree: text is always a text node, so a
 * `<script>` or `<img onerror>` in the answer shows as the characters it is. Links open in a new tab with
 * rel="noopener noreferrer" and only for safe schemes (see safeHref).
 */
import { type ReactNode, memo } from "react";
import { cn } from "../../../lib/cn";
import { CopyButton } from "../components/copy-button";
import { type Block, parseMarkdown } from "./parse-blocks";
import type { Inline } from "./parse-inline";

export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  return <div className={cn("space-y-3 text-sm leading-relaxed break-words", className)}>{parseMarkdown(text).map(renderBlock)}</div>;
});

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.t) {
    case "p":
      return <p key={key}>{renderInlines(block.c)}</p>;
    case "h": {
      const Tag = `h${block.level}` as const;
      const size = block.level === 1 ? "text-xl" : block.level === 2 ? "text-lg" : "text-base";
      return (
        <Tag key={key} className={cn("font-semibold tracking-tight", size)}>
          {renderInlines(block.c)}
        </Tag>
      );
    }
    case "code":
      return <CodeBlock key={key} lang={block.lang} code={block.v} />;
    case "list": {
      const items = block.items.map((item, i) => {
        const task = taskItem(item);
        return task ? (
          <li key={i} className="-ml-5 flex list-none items-start gap-2" data-task={task.done ? "done" : "open"}>
            <input type="checkbox" checked={task.done} readOnly disabled aria-label={task.done ? "Done" : "To do"} className="mt-1 shrink-0" />
            <div className="min-w-0 space-y-2">{task.blocks.map(renderBlock)}</div>
          </li>
        ) : (
          <li key={i} className="space-y-2 pl-1">
            {item.map(renderBlock)}
          </li>
        );
      });
      return block.ordered ? (
        <ol key={key} start={block.start} className="list-decimal space-y-1 pl-5">
          {items}
        </ol>
      ) : (
        <ul key={key} className="list-disc space-y-1 pl-5">
          {items}
        </ul>
      );
    }
    case "quote":
      return (
        <blockquote key={key} className="space-y-2 border-l-2 pl-3 text-muted-foreground">
          {block.c.map(renderBlock)}
        </blockquote>
      );
    case "hr":
      return <hr key={key} />;
    case "table":
      return (
        <div key={key} className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-xs">
            <thead>
              <tr>
                {block.head.map((cell, i) => (
                  <th key={i} className="border px-2 py-1 font-semibold" style={{ textAlign: block.align[i] ?? undefined }}>
                    {renderInlines(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} className="border px-2 py-1" style={{ textAlign: block.align[i] ?? undefined }}>
                      {renderInlines(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** A checklist item ("[ ] step", "[x] step", as plans are written): its mark taken off its first paragraph. */
function taskItem(item: Block[]): { done: boolean; blocks: Block[] } | null {
  const [first, ...rest] = item;
  const lead = first?.t === "p" ? first.c[0] : undefined;
  const mark = lead?.t === "text" ? /^\[( |x|X)\]\s+/.exec(lead.v) : null;
  if (!first || first.t !== "p" || !lead || lead.t !== "text" || !mark) return null;
  const text = lead.v.slice(mark[0].length);
  return { done: mark[1] !== " ", blocks: [{ t: "p", c: [...(text ? [{ ...lead, v: text }] : []), ...first.c.slice(1)] }, ...rest] };
}

function renderInlines(nodes: Inline[]): ReactNode[] {
  return nodes.map(renderInline);
}

function renderInline(node: Inline, key: number): ReactNode {
  switch (node.t) {
    case "text":
      return node.v;
    case "br":
      return <br key={key} />;
    case "code":
      return (
        <code key={key} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
          {node.v}
        </code>
      );
    case "strong":
      return <strong key={key}>{renderInlines(node.c)}</strong>;
    case "em":
      return <em key={key}>{renderInlines(node.c)}</em>;
    case "del":
      return <del key={key}>{renderInlines(node.c)}</del>;
    case "link":
      return (
        <a key={key} href={node.href} target="_blank" rel="noopener noreferrer" className="text-primary underline underline-offset-2 hover:opacity-80">
          {renderInlines(node.c)}
        </a>
      );
  }
}

function CodeBlock({ lang, code }: { lang: string; code: string }) {
  return (
    <div className="overflow-hidden rounded-lg border bg-zinc-950 text-zinc-100" data-testid="code-block">
      <div className="flex items-center justify-between border-b border-white/10 px-3 py-1 text-xs text-zinc-400">
        <span className="font-mono">{lang || "code"}</span>
        <CopyButton text={code} label="Copy code" className="size-6 text-zinc-400 hover:bg-white/10 hover:text-zinc-100" />
      </div>
      <pre className="overflow-x-auto p-3 text-xs leading-relaxed">
        <code className="font-mono">{code}</code>
      </pre>
    </div>
  );
}
