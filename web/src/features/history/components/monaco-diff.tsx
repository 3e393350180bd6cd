/**
 * Monaco's side-by-side diff, read-only: a version's file on the left, the current one on the right.
 * Loaded lazily (it brings Monaco), like the file editor.
 */
import { DiffEditor } from "@monaco-editor/react";
import type * as monaco from "monaco-editor";
import { useEffect, useRef, useState } from "react";
import { Spinner } from "../../../components/ui/spinner";
// For its effects: the bundled Monaco and its workers (without it the loader would fetch Monaco from a CDN).
import "../../files/components/monaco-setup";

const OPTIONS: monaco.editor.IDiffEditorConstructionOptions = {
  readOnly: true,
  originalEditable: false,
  automaticLayout: true,
  renderSideBySide: true,
  // The panel is often narrower than Monaco's switch to the inline view; side by side reads as "then | now".
  useInlineViewWhenSpaceIsLimited: false,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 13,
};

let mounts = 0;

export type MonacoDiffProps = { path: string; language: string; original: string; modified: string };

export default function MonacoDiff({ path, language, original, modified }: MonacoDiffProps) {
  // Models of their own per diff shown (never the file editor's, never an earlier diff's), disposed by us
  // once the diff editor is gone: disposing them with it makes Monaco report "TextModel got disposed
  // before DiffEditorWidget model got reset".
  const [id] = useState(() => ++mounts);
  const models = useRef<monaco.editor.IDiffEditorModel | null>(null);
  useEffect(
    () => () => {
      const shown = models.current;
      setTimeout(() => {
        shown?.original.dispose();
        shown?.modified.dispose();
      }, 0);
    },
    [],
  );
  return (
    <DiffEditor
      original={original}
      modified={modified}
      language={language}
      originalModelPath={`inmemory://history/${id}/version/${path}`}
      modifiedModelPath={`inmemory://history/${id}/current/${path}`}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(editor) => (models.current = editor.getModel())}
      theme="vs-dark"
      loading={<Spinner className="size-6 text-muted-foreground" />}
      options={OPTIONS}
    />
  );
}
