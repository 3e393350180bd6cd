/**
 * The editor screen of the Files view: Back, the file's path, Save ('Saving...' while saving)
 * and a dark Monaco editor, loaded on first use. Left by Back or after a successful save. Binary files
 * are not opened: editing them as text would corrupt them. A viewer reads it (no Save, Monaco read-only);
 * when someone else saves the open file, a line says so and offers their version.
 */
import type { ProjectFile } from "@shared/schemas/file";
import { Component, type ReactNode, Suspense, lazy, useCallback, useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { serverMessage } from "../file-errors";
import { editorLanguage } from "../file-kind";
import { formatFileSize } from "../format-file-size";
import { useFileContent } from "../use-file-content";
import { useSaveFile } from "../use-file-mutations";
import { FileIcon } from "./file-icon";
import { BackIcon, SaveIcon } from "./icons";
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../../api/queries";
import { useProjectRole } from "../../team/use-project-role";

const CodeEditor = lazy(() => import("./code-editor"));

type FileEditorProps = { projectId: string; file: ProjectFile; onClose: () => void };

export function FileEditor({ projectId, file, onClose }: FileEditorProps) {
  const content = useFileContent(projectId, file.id);
  const { canEdit } = useProjectRole(projectId);
  // The file as the list knows it now (file events keep the list current): another editor's save moves its time.
  const latest = useQuery({ ...queries.files(projectId), select: (list) => list.find((f) => f.id === file.id)?.updatedAt }).data;
  const [openedAt, setOpenedAt] = useState(file.updatedAt);
  const [mount, setMount] = useState(0);
  const saveFile = useSaveFile();
  const draft = useRef<string | null>(null);
  const [dirty, setDirty] = useState(false);

  useEffect(() => {
    if (!content.isError) return;
    toast({ title: "Load failed", description: serverMessage(content.error, "Failed to load file content"), variant: "destructive" });
    onClose();
  }, [content.isError, content.error, onClose]);

  const loaded = content.data;
  const changedElsewhere = latest !== undefined && latest !== openedAt && !saveFile.isPending;
  /** Drops my changes for the saved text, in a fresh editor. */
  const reload = async () => {
    await content.refetch();
    setOpenedAt(latest ?? openedAt);
    draft.current = null;
    setDirty(false);
    setMount((n) => n + 1);
  };
  const canSave = Boolean(loaded && !loaded.binary) && !saveFile.isPending;

  const save = useCallback(() => {
    if (!loaded || loaded.binary || saveFile.isPending) return;
    saveFile.mutate(
      { file, content: draft.current ?? loaded.content },
      {
        onSuccess: () => {
          toast({ title: "File saved", description: `${file.path} was saved to S3 storage and the E2B sandbox.` });
          onClose();
        },
        onError: (err) => {
          toast({ title: "Save failed", description: serverMessage(err, "Failed to save file"), variant: "destructive" });
        },
      },
    );
  }, [file, loaded, onClose, saveFile]);

  const onChange = useCallback(
    (value: string) => {
      draft.current = value;
      setDirty(value !== loaded?.content);
    },
    [loaded],
  );

  return (
    <section aria-label={`Editing ${file.path}`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" size="sm" onClick={onClose}>
          <BackIcon className="size-4" />
          Back
        </Button>
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <FileIcon path={file.path} className="size-8" />
          <h2 className="truncate font-mono text-sm font-medium" title={file.path} data-testid="editor-path">
            {file.path}
          </h2>
          {dirty && <span className="shrink-0 rounded-full bg-amber-500/15 px-2 py-0.5 text-xs text-amber-600 dark:text-amber-400">Unsaved changes</span>}
        </div>
        {!loaded?.binary && canEdit && (
          <Button size="sm" onClick={save} disabled={!canSave}>
            {saveFile.isPending ? <Spinner className="size-4" /> : <SaveIcon className="size-4" />}
            {saveFile.isPending ? "Saving..." : "Save"}
          </Button>
        )}
      </div>

      {changedElsewhere && (
        <div
          role="status"
          className="flex flex-wrap items-center gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm"
          data-testid="file-changed"
        >
          <span className="flex-1">Someone else saved this file since you opened it. Saving now replaces their change.</span>
          <Button variant="outline" size="sm" onClick={() => void reload()}>
            Load their version
          </Button>
        </div>
      )}
      <div className="h-[calc(100dvh-13rem)] min-h-80 overflow-hidden rounded-lg border bg-[#1e1e1e]" data-testid="editor-frame">
        {content.isPending || content.isError ? (
          <Centered>
            <Spinner className="size-6 text-neutral-400" />
          </Centered>
        ) : loaded?.binary ? (
          <BinaryNotice path={file.path} size={loaded.size} />
        ) : (
          <EditorBoundary>
            <Suspense
              fallback={
                <Centered>
                  <Spinner className="size-6 text-neutral-400" />
                </Centered>
              }
            >
              <CodeEditor
                key={mount}
                path={file.path}
                language={editorLanguage(file.path)}
                defaultValue={loaded?.content ?? ""}
                onChange={onChange}
                onSave={canEdit ? save : () => {}}
                readOnly={!canEdit}
              />
            </Suspense>
          </EditorBoundary>
        )}
      </div>
    </section>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return <div className="flex h-full items-center justify-center p-6 text-center">{children}</div>;
}

function BinaryNotice({ path, size }: { path: string; size: number }) {
  return (
    <Centered>
      <div data-testid="binary-notice" className="max-w-md text-neutral-200">
        <p className="text-base font-semibold">This file can't be opened in the editor</p>
        <p className="mt-2 text-sm text-neutral-400">
          {path} ({formatFileSize(size)}) is a binary file, not text. It stays stored with your project, synced to the sandbox and included in the ZIP download.
        </p>
      </div>
    </Centered>
  );
}

/** If Monaco's chunk cannot be fetched (offline, a new deploy), say so instead of blanking the page. */
class EditorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Centered>
        <p role="alert" className="text-sm text-neutral-300">
          The editor could not be loaded. Check your connection, then go back and open the file again.
        </p>
      </Centered>
    );
  }
}
