/**
 * The History panel (opened from the Files screen and the chat header): the project's versions with time,
 * label and size of change, "Save version" with a name, and for each version a diff against the current
 * files and Restore (with a confirmation).
 */
import { MAX_VERSION_LABEL_LENGTH, type VersionSummary } from "@shared/schemas/versions";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Input } from "../../../components/ui/field";
import { Sheet } from "../../../components/ui/sheet";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { formatRelativeTime } from "../../../lib/relative-time";
import { serverMessage } from "../../files/file-errors";
import { useSaveVersion } from "../use-version-mutations";
import { useVersions } from "../use-versions";
import { describeChange, SOURCE_LABELS } from "../version-display";
import { RestoreVersionDialog } from "./restore-version-dialog";
import { VersionDiffPanel } from "./version-diff-panel";

type Props = { projectId: string; open: boolean; onClose: () => void };

export function HistoryPanel({ projectId, open, onClose }: Props) {
  const versions = useVersions(projectId, { enabled: open });
  const save = useSaveVersion(projectId);
  const [label, setLabel] = useState("");
  const [comparing, setComparing] = useState<VersionSummary | null>(null);
  const [restoring, setRestoring] = useState<VersionSummary | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!label.trim()) return;
    save.mutate(label.trim(), {
      onSuccess: () => {
        setLabel("");
        toast({ title: "Version saved", description: `"${label.trim()}" can be restored from History.` });
      },
      onError: (err) => toast({ title: "Save failed", description: serverMessage(err, "Failed to save the version"), variant: "destructive" }),
    });
  };

  return (
    <>
      <Sheet open={open} onClose={onClose} side="right" title="History" className="w-96">
        <form onSubmit={submit} className="flex gap-2 border-b px-4 pb-4">
          <Input
            aria-label="Version name"
            placeholder="Name this version"
            value={label}
            maxLength={MAX_VERSION_LABEL_LENGTH}
            onChange={(e) => setLabel(e.target.value)}
          />
          <Button type="submit" disabled={!label.trim() || save.isPending}>
            Save version
          </Button>
        </form>
        <ol className="flex-1 overflow-y-auto p-2" aria-label="Versions">
          {versions.isPending && <Spinner />}
          {versions.data?.length === 0 && <li className="p-2 text-sm text-muted-foreground">No versions yet: they appear as you and the agent change files.</li>}
          {versions.data?.map((version) => (
            <li key={version.id} className="rounded-md p-2 hover:bg-muted/50">
              <div className="flex items-baseline justify-between gap-2">
                <span className="truncate font-medium" title={version.label}>
                  {version.label}
                </span>
                <time className="shrink-0 text-xs text-muted-foreground" dateTime={version.createdAt} title={new Date(version.createdAt).toLocaleString()}>
                  {formatRelativeTime(version.createdAt)}
                </time>
              </div>
              <div className="mt-1 flex items-center justify-between gap-2 text-xs text-muted-foreground">
                <span>
                  {SOURCE_LABELS[version.source]} · {describeChange(version)}
                </span>
                <span className="flex gap-1">
                  <Button size="sm" variant="ghost" onClick={() => setComparing(version)}>
                    Compare
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => setRestoring(version)}>
                    Restore
                  </Button>
                </span>
              </div>
            </li>
          ))}
        </ol>
      </Sheet>
      <VersionDiffPanel projectId={projectId} version={comparing} onClose={() => setComparing(null)} />
      <RestoreVersionDialog projectId={projectId} version={restoring} onClose={() => setRestoring(null)} />
    </>
  );
}
