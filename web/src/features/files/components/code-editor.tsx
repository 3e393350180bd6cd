/**
 * Monaco, bundled (never from a CDN) and loaded only when a file is opened: this module is imported lazily
 * by file-editor.tsx, so Monaco and its workers live in their own chunks.
 */
import { Editor } from "@monaco-editor/react";
import { useRef } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { monaco } from "./monaco-setup";

export type CodeEditorProps = {
  /** Used for the model's URI, so the language service sees the right extension (.tsx allows JSX). */
  path: string;
  language: string;
  defaultValue: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+S inside the editor. */
  onSave: () => void;
  /** A viewer's editor: the text can be read and selected, not changed. */
  readOnly?: boolean;
};

const OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  fontSize: 14,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  tabSize: 2,
  wordWrap: "on",
  padding: { top: 12 },
};

export default function CodeEditor({ path, language, defaultValue, onChange, onSave, readOnly = false }: CodeEditorProps) {
  const saveRef = useRef(onSave);
  saveRef.current = onSave;
  const uri = monaco.Uri.file(`/${path}`);
  return (
    <Editor
      path={uri.toString()}
      language={language}
      defaultValue={defaultValue}
      theme="vs-dark"
      loading={<Spinner className="size-6 text-muted-foreground" />}
      // A model left from an earlier opening would bring back its old text: start from the fetched content.
      beforeMount={(m) => m.editor.getModel(uri)?.dispose()}
      onChange={(value) => onChange(value ?? "")}
      onMount={(editor) => {
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => saveRef.current());
        editor.focus();
      }}
      options={readOnly ? { ...OPTIONS, readOnly, domReadOnly: true } : OPTIONS}
    />
  );
}
