/**
 * Turns the places problems point at into project-relative paths: absolute paths inside the sandbox
 * (`/home/user/project/src/App.tsx`), preview URLs (`http://5173-….localhost:3000/src/App.tsx?t=17…`) and
 * Vite's `/@fs/` URLs all become `src/App.tsx`, so one problem reported by the browser, the dev server and
 * the compiler reads (and deduplicates) the same.
 */
const PROJECT_ROOT = "/home/user/project/";

export function projectRelativePath(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let path = raw.trim();
  if (!path) return null;
  // A URL: keep its path only (the origin is the preview's, which changes with every sandbox).
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(path);
  if (url) path = url[1] ?? "/";
  else if (path.startsWith("file://")) path = path.slice("file://".length);
  // Vite's cache-busting and import queries (?t=…, ?v=…, ?import) are not part of the file.
  path = path.replace(/[?#].*$/, "");
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not percent-encoded after all; keep it as it is.
  }
  if (path.startsWith("/@fs/")) path = path.slice("/@fs".length);
  const inProject = path.indexOf(PROJECT_ROOT);
  if (inProject >= 0) path = path.slice(inProject + PROJECT_ROOT.length);
  else if (path.startsWith("/")) path = path.slice(1);
  return path.slice(0, 500) || null;
}

/** Code the project does not own: dependencies, Vite's own client, node internals, the problem reporter. */
export function isForeignPath(path: string): boolean {
  return /(^|\/)node_modules\/|^@vite\/|^@react-refresh|^node:|^internal\/|^__appbuilder\/|^\.vite\//.test(path);
}

export type SourceLocation = { file: string | null; line: number | null };

// `at fn (file:1:2)`, `at file:1:2` (V8) and `fn@file:1:2` (Firefox, Safari).
const FRAME = /(?:\bat\s+(?:.*?\()?|@)((?:[a-z][a-z0-9+.-]*:\/\/|\/|[A-Za-z]:\\|[\w.@-]+\/)[^\s()]*?):(\d+)(?::\d+)?\)?\s*$/i;

/** The first stack frame in the project's own code, or null when every frame is someone else's. */
export function firstProjectFrame(stack: string | null | undefined): SourceLocation | null {
  if (!stack) return null;
  for (const line of stack.split("\n").slice(0, 50)) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    const file = projectRelativePath(m[1]);
    if (file && !isForeignPath(file)) return { file, line: Number(m[2]) };
  }
  return null;
}
