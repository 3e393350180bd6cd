/** The History list: each version with its time, label, who made it, how big its change was, and whether its data changed. */
import type { VersionSummary } from "@shared/schemas/versions";
import { cn } from "../../../lib/cn";
import { dataMark, describeChange, formatVersionTime, SOURCE_LABELS } from "../version-format";

export function VersionList({
  versions,
  selectedId,
  onSelect,
}: {
  versions: VersionSummary[];
  selectedId: string | null;
  onSelect: (version: VersionSummary) => void;
}) {
  return (
    <ol aria-label="Versions" className="flex flex-col gap-1" data-testid="version-list">
      {versions.map((v) => {
        const selected = v.id === selectedId;
        const mark = dataMark(v);
        return (
          <li key={v.id}>
            <button
              type="button"
              onClick={() => onSelect(v)}
              aria-current={selected || undefined}
              data-testid="version-item"
              data-source={v.source}
              className={cn(
                "flex w-full flex-col gap-0.5 rounded-md px-3 py-2 text-left hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                selected && "bg-muted",
              )}
            >
              <span className="flex items-center gap-2 text-xs text-muted-foreground">
                <time dateTime={v.createdAt} title={new Date(v.createdAt).toLocaleString()}>
                  {formatVersionTime(v.createdAt)}
                </time>
                <span className="rounded bg-background px-1.5 py-0.5 text-[11px] font-medium">{SOURCE_LABELS[v.source]}</span>
                {mark && (
                  <span title={mark.title} data-testid="version-data" className="rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium text-amber-900">
                    {mark.text}
                  </span>
                )}
                <span className="ml-auto tabular-nums" data-testid="version-change">
                  {describeChange(v)}
                </span>
              </span>
              <span className="line-clamp-2 text-sm break-words" data-testid="version-label">
                {v.label}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
