/**
 * An opened tool badge, written for a person: an edit as its removed and added lines, a written file as a
 * link that opens it in Files, a command with its output.
 */
import type { ToolCall } from "@shared/schemas/message";
import { Link } from "wouter";
import { projectPath } from "../../projects/project-views";

type Detail = NonNullable<ToolCall["detail"]>;

const box = "max-h-72 overflow-auto border-t px-3 py-2 font-mono text-[11px] leading-relaxed";

export function ToolDetailView({ detail, projectId }: { detail: Detail; projectId?: string }) {
  const fileLink = (path: string) =>
    projectId ? (
      <Link
        href={`${projectPath(projectId, "files")}?open=${encodeURIComponent(path)}`}
        data-testid="open-file"
        className="text-primary underline underline-offset-2 hover:opacity-80"
      >
        Open {path} in Files
      </Link>
    ) : (
      <span>{path}</span>
    );
  if (detail.kind === "file") return <div className="border-t px-3 py-2 text-xs">{fileLink(detail.path)}</div>;
  if (detail.kind === "command") {
    return (
      <div className={box} data-testid="tool-command">
        <p className="text-foreground">$ {detail.command}</p>
        <pre className="mt-1 whitespace-pre-wrap text-muted-foreground">{detail.output}</pre>
      </div>
    );
  }
  return (
    <div className={box} data-testid="tool-diff">
      <p className="mb-1 font-sans text-xs">{fileLink(detail.path)}</p>
      {detail.edits.map((edit, i) => (
        <div key={i} className="mt-1 overflow-hidden rounded border">
          {lines(edit.removed).map((line, j) => (
            <pre key={`-${j}`} data-line="removed" className="bg-red-500/10 px-2 whitespace-pre-wrap text-red-700 dark:text-red-300">
              - {line}
            </pre>
          ))}
          {lines(edit.added).map((line, j) => (
            <pre key={`+${j}`} data-line="added" className="bg-emerald-500/10 px-2 whitespace-pre-wrap text-emerald-700 dark:text-emerald-300">
              + {line}
            </pre>
          ))}
        </div>
      ))}
    </div>
  );
}

const lines = (text: string) => (text ? text.replace(/\n$/, "").split("\n") : []);
