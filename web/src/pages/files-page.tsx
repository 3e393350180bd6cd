/**
 * /project/{id}/files: the project's files, kept current by a 5 s poll and by WebSocket
 * file events, with search, download as ZIP, and the editor, rename and delete overlays. `?open=<path>`
 * opens that file in the editor (a chat tool badge links here).
 */
import type { ProjectFile } from "@shared/schemas/file";
import { useCallback, useEffect, useRef, useState } from "react";
import { useSearch } from "wouter";
import { describeError } from "../api/api-error";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { DeleteFileDialog } from "../features/files/components/delete-file-dialog";
import { FileEditor } from "../features/files/components/file-editor";
import { FilesList } from "../features/files/components/files-list";
import { DownloadIcon } from "../features/files/components/icons";
import { RenameFileDialog } from "../features/files/components/rename-file-dialog";
import { useDownloadFiles } from "../features/files/use-download-files";
import { useFileEvents } from "../features/files/use-file-events";
import { useFiles } from "../features/files/use-files";
import { HistoryButton } from "../features/history/components/history-button";
import { GitButton } from "../features/git/git-button";
import { useProjectRole } from "../features/team/use-project-role";

export function FilesPage({ projectId }: { projectId: string }) {
  const files = useFiles(projectId);
  const { live } = useFileEvents(projectId);
  const download = useDownloadFiles(projectId);
  // A viewer reads files (the editor opens read-only) but gets no rename or delete: the API would refuse them.
  const { canEdit } = useProjectRole(projectId);
  const [editing, setEditing] = useState<ProjectFile | null>(null);
  const [renaming, setRenaming] = useState<ProjectFile | null>(null);
  const [deleting, setDeleting] = useState<ProjectFile | null>(null);
  const closeEditor = useCallback(() => setEditing(null), []);
  const open = new URLSearchParams(useSearch()).get("open");
  const opened = useRef<string | null>(null);
  useEffect(() => {
    const file = open && opened.current !== open ? files.data?.find((f) => f.path === open) : undefined;
    if (!file) return;
    opened.current = open;
    setEditing(file);
  }, [open, files.data]);

  if (files.isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center text-muted-foreground">
        <Spinner className="size-8" />
      </div>
    );
  }

  const count = files.data?.length ?? 0;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 md:px-6" data-testid="files-page" data-live={live ? "true" : "false"}>
      {editing ? (
        <FileEditor key={editing.id} projectId={projectId} file={editing} onClose={closeEditor} />
      ) : (
        <>
          <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
            <div className="min-w-0">
              <div className="flex items-center gap-3">
                <h1 className="text-3xl font-bold tracking-tight">Files</h1>
                {files.data && (
                  <span data-testid="file-count" className="rounded-full bg-muted px-2.5 py-0.5 text-sm font-medium tabular-nums">
                    {count} {count === 1 ? "file" : "files"}
                  </span>
                )}
                <LiveIndicator live={live} />
              </div>
              <p className="mt-1 text-muted-foreground">Stored in S3 and synced with E2B sandbox</p>
            </div>
            <div className="flex items-center gap-2">
              <HistoryButton projectId={projectId} className="h-10 px-4" />
              <GitButton projectId={projectId} className="h-10 px-4" />
              {count > 0 && (
                <Button variant="outline" onClick={() => download.mutate(files.data ?? [])} disabled={download.isPending}>
                  {download.isPending ? <Spinner className="size-4" /> : <DownloadIcon className="size-4" />}
                  Download
                </Button>
              )}
            </div>
          </header>

          {files.isError && !files.data ? (
            <div role="alert" className="rounded-lg border border-destructive/50 p-6 text-sm">
              <p className="font-medium">Could not load the files.</p>
              <p className="mt-1 text-muted-foreground">{describeError(files.error)}</p>
              <Button variant="outline" size="sm" className="mt-4" onClick={() => files.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <FilesList files={files.data ?? []} onEdit={setEditing} onRename={canEdit ? setRenaming : undefined} onDelete={canEdit ? setDeleting : undefined} />
          )}
        </>
      )}
      <RenameFileDialog file={renaming} onClose={() => setRenaming(null)} />
      <DeleteFileDialog file={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/** A quiet dot saying changes arrive the moment they happen (the WebSocket is subscribed). */
function LiveIndicator({ live }: { live: boolean }) {
  if (!live) return null;
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" title="Changes show up as they happen">
      <span className="relative flex size-2">
        <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-500 opacity-60" />
        <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
      </span>
      Live
    </span>
  );
}
