/** A version against the current files: the changed files, and the selected one's diff in Monaco. */
import type { VersionSummary } from "@shared/schemas/versions";
import { useMemo, useState } from "react";
import { describeError } from "../../../api/api-error";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { DIFF_KIND_LABELS, type DiffRow, diffRows } from "../diff-rows";
import { useVersionDiff } from "../use-version-diff";
import { FileDiff } from "./file-diff";

const KIND_STYLES: Record<DiffRow["kind"], string> = {
  added: "bg-emerald-500/15 text-emerald-700 dark:text-emerald-300",
  removed: "bg-destructive/15 text-destructive",
  changed: "bg-amber-500/15 text-amber-700 dark:text-amber-300",
  renamed: "bg-sky-500/15 text-sky-700 dark:text-sky-300",
};

export function VersionDiffView({ projectId, version }: { projectId: string; version: VersionSummary }) {
  const diff = useVersionDiff(projectId, version.id);
  const rows = useMemo(() => (diff.data ? diffRows(diff.data) : []), [diff.data]);
  const [picked, setPicked] = useState<string | null>(null);
  const selected = rows.find((r) => r.path === picked) ?? rows[0] ?? null;

  if (diff.isPending)
    return (
      <div className="flex flex-1 items-center justify-center text-muted-foreground">
        <Spinner className="size-6" />
      </div>
    );
  if (diff.isError)
    return (
      <p role="alert" className="p-4 text-sm text-destructive">
        Could not compare: {describeError(diff.error)}
      </p>
    );
  if (rows.length === 0) {
    return (
      <p className="p-4 text-sm text-muted-foreground" data-testid="version-diff-empty">
        The current files are the same as this version.
      </p>
    );
  }
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2" data-testid="version-diff">
      <p className="px-1 text-xs text-muted-foreground">Left: this version. Right: the files now.</p>
      <ul aria-label="Changed files" className="flex max-h-32 shrink-0 flex-col overflow-y-auto rounded-md border">
        {rows.map((row) => (
          <li key={`${row.kind}:${row.path}`}>
            <button
              type="button"
              onClick={() => setPicked(row.path)}
              aria-pressed={selected?.path === row.path}
              data-testid="diff-file"
              data-kind={row.kind}
              className={cn(
                "flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                selected?.path === row.path && "bg-muted",
              )}
            >
              <span className={cn("shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium", KIND_STYLES[row.kind])}>{DIFF_KIND_LABELS[row.kind]}</span>
              <span className="truncate font-mono text-xs">{row.kind === "renamed" ? `${row.versionPath} → ${row.path}` : row.path}</span>
            </button>
          </li>
        ))}
      </ul>
      {selected && (
        <div className="min-h-[320px] flex-1 overflow-hidden rounded-md border">
          <FileDiff key={`${version.id}:${selected.path}`} projectId={projectId} versionId={version.id} row={selected} />
        </div>
      )}
    </div>
  );
}
