/**
 * Monaco, bundled (never from a CDN) and loaded only when a file is opened: this module is imported lazily
 * by file-editor.tsx, so Monaco and its workers live in their own chunks (DESIGN.md §6).
 */
import { Editor, loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import CssWorker from "monaco-editor/language/css/css.worker?worker";
import HtmlWorker from "monaco-editor/language/html/html.worker?worker";
import JsonWorker from "monaco-editor/language/json/json.worker?worker";
import TsWorker from "monaco-editor/language/typescript/ts.worker?worker";
import { useRef } from "react";
import { Spinner } from "../../../components/ui/spinner";

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === "json") return new JsonWorker();
    if (label === "css" || label === "scss" || label === "less") return new CssWorker();
    if (label === "html" || label === "handlebars" || label === "razor") return new HtmlWorker();
    if (label === "typescript" || label === "javascript") return new TsWorker();
    return new EditorWorker();
  },
};

// A file is edited alone, without its project's dependencies: type errors such as "Cannot find module
// 'react'" would be noise, so only syntax is checked. JSX is allowed in .tsx/.jsx.
for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) {
  defaults.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: false });
  defaults.setCompilerOptions({
    ...defaults.getCompilerOptions(),
    jsx: monaco.typescript.JsxEmit.ReactJSX,
    allowJs: true,
    allowNonTsExtensions: true,
    target: monaco.typescript.ScriptTarget.ESNext,
    module: monaco.typescript.ModuleKind.ESNext,
  });
}

loader.config({ monaco });

export type CodeEditorProps = {
  /** Used for the model's URI, so the language service sees the right extension (.tsx allows JSX). */
  path: string;
  language: string;
  defaultValue: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+S inside the editor. */
  onSave: () => void;
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

export default function CodeEditor({ path, language, defaultValue, onChange, onSave }: CodeEditorProps) {
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
      options={OPTIONS}
    />
  );
}
