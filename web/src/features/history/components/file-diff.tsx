/** One file of a version's diff: both sides fetched, then shown in Monaco's diff (or a note for binary files). */
import { lazy, Suspense } from "react";
import { describeError } from "../../../api/api-error";
import { Spinner } from "../../../components/ui/spinner";
import { editorLanguage } from "../../files/file-kind";
import type { DiffRow } from "../diff-rows";
import { CURRENT } from "../use-version-diff";
import { useVersionFile } from "../use-version-file";

const MonacoDiff = lazy(() => import("./monaco-diff"));

export function FileDiff({ projectId, versionId, row }: { projectId: string; versionId: string; row: DiffRow }) {
  const before = useVersionFile(projectId, versionId, row.versionPath);
  const now = useVersionFile(projectId, CURRENT, row.currentPath);
  const loading = (
    <div className="flex h-full items-center justify-center text-muted-foreground">
      <Spinner className="size-6" />
    </div>
  );

  if (before.isError || now.isError) {
    return (
      <p role="alert" className="p-4 text-sm text-destructive">
        Could not load {row.path}: {describeError(before.error ?? now.error)}
      </p>
    );
  }
  if (!before.data || !now.data) return loading;
  if (before.data.text === null || now.data.text === null) {
    return <p className="p-4 text-sm text-muted-foreground">{row.path} is a binary file: no text to compare.</p>;
  }
  return (
    <div className="h-full" data-testid="version-file-diff" data-path={row.path}>
      <Suspense fallback={loading}>
        <MonacoDiff path={row.path} language={editorLanguage(row.path)} original={before.data.text} modified={now.data.text} />
      </Suspense>
    </div>
  );
}
