/**
 * What the Files view knows from a path alone: its extension, the editor language and the
 * kind of icon to show.
 */

/** The lower-case extension of the file name, without the dot; "" when there is none (`Makefile`, `.env`). */
export function fileExtension(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : "";
}

const LANGUAGES: Record<string, string> = {
  js: "javascript",
  jsx: "javascript",
  ts: "typescript",
  tsx: "typescript",
  py: "python",
  html: "html",
  css: "css",
  json: "json",
  md: "markdown",
  yaml: "yaml",
  yml: "yaml",
  xml: "xml",
  sh: "shell",
  bash: "shell",
};

/** The Monaco language id for a path; any extension not listed above is plaintext. */
export function editorLanguage(path: string): string {
  return LANGUAGES[fileExtension(path)] ?? "plaintext";
}

export type FileKind = "code" | "markup" | "style" | "data" | "text" | "image" | "archive" | "other";

const KINDS: Record<string, FileKind> = {};
const group = (kind: FileKind, exts: string) => exts.split(" ").forEach((ext) => (KINDS[ext] = kind));
group("code", "js jsx mjs cjs ts tsx mts cts py rb go rs java kt c h cpp hpp cs php swift sh bash zsh sql vue svelte");
group("markup", "html htm xml svg");
group("style", "css scss sass less");
group("data", "json yaml yml toml ini env lock csv");
group("text", "md mdx txt rst log");
group("image", "png jpg jpeg gif webp ico bmp avif");
group("archive", "zip tar gz tgz bz2 xz 7z rar");

/** Which icon a row shows. */
export function fileKind(path: string): FileKind {
  return KINDS[fileExtension(path)] ?? "other";
}
