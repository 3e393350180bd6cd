/**
 * Monaco's side-by-side diff, read-only. Loaded lazily (like the file editor), and configured by the file
 * editor's module, the one place Monaco's workers and loader are set up.
 */
import { DiffEditor } from "@monaco-editor/react";
import "../../files/components/code-editor";
import { Spinner } from "../../../components/ui/spinner";

type Props = { path: string; language: string; original: string; modified: string };

export default function VersionDiffEditor({ path, language, original, modified }: Props) {
  return (
    <DiffEditor
      original={original}
      modified={modified}
      language={language}
      originalModelPath={`version://${path}`}
      modifiedModelPath={`current://${path}`}
      theme="vs-dark"
      loading={<Spinner />}
      options={{ readOnly: true, originalEditable: false, renderSideBySide: true, minimap: { enabled: false }, automaticLayout: true }}
    />
  );
}
