/**
 * A version against the files as they are now: the paths added, removed, changed or renamed, and the
 * Monaco diff of the one picked. Binary files are listed without a text diff.
 */
import type { VersionSummary } from "@shared/schemas/versions";
import { Suspense, lazy, useState } from "react";
import { Sheet } from "../../../components/ui/sheet";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { editorLanguage, fileKind } from "../../files/file-kind";
import { CURRENT } from "../history-api";
import { useFileSides, useVersionDiff } from "../use-version-diff";

const VersionDiffEditor = lazy(() => import("./version-diff-editor"));

type Props = { projectId: string; version: VersionSummary | null; onClose: () => void };
type Row = { path: string; kind: "added" | "removed" | "changed" | "renamed"; from?: string };

export function VersionDiffPanel({ projectId, version, onClose }: Props) {
  const diff = useVersionDiff(projectId, version?.id ?? "", CURRENT);
  const [picked, setPicked] = useState<string | null>(null);
  const rows: Row[] = diff.data
    ? [
        ...diff.data.changed.map((e) => ({ path: e.path, kind: "changed" as const })),
        ...diff.data.added.map((e) => ({ path: e.path, kind: "added" as const })),
        ...diff.data.removed.map((e) => ({ path: e.path, kind: "removed" as const })),
        ...diff.data.renamed.map((e) => ({ path: e.to, from: e.from, kind: "renamed" as const })),
      ]
    : [];
  const selected = rows.find((r) => r.path === picked) ?? rows[0] ?? null;
  // Images and archives have no lines to compare.
  const textual = selected !== null && !["image", "archive"].includes(fileKind(selected.path));
  const sides = useFileSides(projectId, version?.id ?? "", CURRENT, textual ? { fromPath: selected.from ?? selected.path, toPath: selected.path } : null);

  return (
    <Sheet open={version !== null} onClose={onClose} side="right" title={version ? `Changes since "${version.label}"` : "Changes"} className="w-[min(1100px,95vw)]">
      <div className="flex min-h-0 flex-1 border-t">
        <ul className="w-64 shrink-0 overflow-y-auto border-r p-2 text-sm" aria-label="Changed files">
          {diff.isPending && <Spinner />}
          {diff.data && rows.length === 0 && <li className="p-2 text-muted-foreground">No differences from the current files.</li>}
          {rows.map((row) => (
            <li key={`${row.kind}:${row.path}`}>
              <button
                type="button"
                onClick={() => setPicked(row.path)}
                className={cn("w-full truncate rounded px-2 py-1 text-left hover:bg-muted", selected?.path === row.path && "bg-muted")}
                title={row.from ? `${row.from} → ${row.path}` : row.path}
              >
                <span className="mr-2 font-mono text-xs uppercase text-muted-foreground">{row.kind[0]}</span>
                {row.path}
              </button>
            </li>
          ))}
        </ul>
        <div className="min-w-0 flex-1">
          {selected && !textual && <p className="p-4 text-sm text-muted-foreground">Binary file: no text diff.</p>}
          {selected && textual && sides.data && (
            <Suspense fallback={<Spinner />}>
              <VersionDiffEditor path={selected.path} language={editorLanguage(selected.path)} original={sides.data.original} modified={sides.data.modified} />
            </Suspense>
          )}
        </div>
      </div>
    </Sheet>
  );
}
