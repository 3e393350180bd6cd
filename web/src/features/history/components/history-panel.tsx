/**
 * The History panel: a sheet from the right with "Save version" and the project's versions, the selected one
 * compared with the current files, and Restore (after a confirmation). Opened from Files and from the chat header.
 */
import type { VersionSummary } from "@shared/schemas/versions";
import { useState } from "react";
import { describeError } from "../../../api/api-error";
import { Button } from "../../../components/ui/button";
import { Sheet } from "../../../components/ui/sheet";
import { Spinner } from "../../../components/ui/spinner";
import { useVersions } from "../use-versions";
import { formatVersionTime } from "../version-format";
import { type RestoreTarget, RestoreDialog } from "./restore-dialog";
import { useProjectRole } from "../../team/use-project-role";
import { SaveVersionForm } from "./save-version-form";
import { VersionDiffView } from "./version-diff-view";
import { VersionList } from "./version-list";

export function HistoryPanel({ projectId, open, onClose }: { projectId: string; open: boolean; onClose: () => void }) {
  const versions = useVersions(projectId, open);
  // A viewer reads the history and its diffs; saving and restoring are writes the API refuses them.
  const { canEdit } = useProjectRole(projectId);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);
  const list = versions.data ?? [];
  const selected: VersionSummary | null = list.find((v) => v.id === selectedId) ?? list[0] ?? null;

  return (
    <Sheet open={open} onClose={onClose} side="right" title="History" className="w-[min(72rem,100vw)] max-w-none">
      <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-4 pb-4 md:flex-row md:overflow-hidden" data-testid="history-panel">
        <section aria-label="Versions" className="shrink-0 md:w-80 md:overflow-y-auto">
          {canEdit && <SaveVersionForm projectId={projectId} onSaved={(v) => setSelectedId(v.id)} />}
          {versions.isPending ? (
            <div className="flex justify-center py-12 text-muted-foreground">
              <Spinner className="size-6" />
            </div>
          ) : versions.isError ? (
            <p role="alert" className="text-sm text-destructive">
              Could not load the history: {describeError(versions.error)}
            </p>
          ) : list.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="history-empty">
              No versions yet. One is saved whenever the agent or you change files.
            </p>
          ) : (
            <VersionList versions={list} selectedId={selected?.id ?? null} onSelect={(v) => setSelectedId(v.id)} />
          )}
        </section>
        {selected && (
          <section aria-label="Compare with the current files" className="flex min-h-0 min-w-0 flex-1 flex-col gap-3">
            <header className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h3 className="truncate font-medium" data-testid="selected-version-label">
                  {selected.label}
                </h3>
                <p className="text-xs text-muted-foreground">{formatVersionTime(selected.createdAt)}</p>
              </div>
              {canEdit && (
                <Button size="sm" onClick={() => setRestoring(selected)} data-testid="restore-version">
                  Restore
                </Button>
              )}
            </header>
            <VersionDiffView key={selected.id} projectId={projectId} version={selected} />
          </section>
        )}
      </div>
      <RestoreDialog projectId={projectId} target={restoring} onClose={() => setRestoring(null)} />
    </Sheet>
  );
}
