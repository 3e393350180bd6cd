/**
 * Dev-only source tags for App Builder's "Select to edit": every HTML element written in JSX under `src/`
 * gets `data-src="src/App.tsx:12"` (where it is written) and `data-component="App"` (the component it is in),
 * so an element picked in the preview names its place in the code. `apply: "serve"`: `vite build` (what
 * Publish runs) never loads it, so published builds carry no tags. Components (`<Card>`) are left alone:
 * only elements React writes into the page keep attributes. Safe to remove; picking then falls back to a
 * CSS selector.
 */
import * as vite from "vite";
import type { Plugin } from "vite";

type Node = { type?: string; start?: number; end?: number; [key: string]: unknown };

const SOURCE = /\.[jt]sx$/;

export default function sourceTags(): Plugin {
  let root = process.cwd();
  return {
    name: "app-builder-source-tags",
    apply: "serve",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    transform(code, id) {
      const file = id.split("?")[0]!;
      if (!SOURCE.test(file) || file.includes("/node_modules/") || !file.startsWith(`${root}/`)) return null;
      const tagged = tagSource(code, file.slice(root.length + 1));
      return tagged === code ? null : { code: tagged, map: null };
    },
  };
}

/** `code` with its JSX elements tagged; the code itself when it cannot be parsed (Vite then reports why). */
export function tagSource(code: string, path: string): string {
  const parse = (vite as unknown as { parseSync?: (file: string, text: string, o: object) => { program: Node; errors: unknown[] } }).parseSync;
  if (!parse) return code;
  const parsed = parse(path, code, { lang: path.endsWith(".tsx") ? "tsx" : "jsx" });
  if (parsed.errors.length) return code;
  const inserts: { at: number; text: string }[] = [];
  const fileName = path.split("/").pop()!.replace(/\.[jt]sx$/, "");
  walk(parsed.program, fileName, (opening, component) => {
    const name = opening.name as Node & { name?: string };
    if (name.type !== "JSXIdentifier" || !/^[a-z]/.test(name.name ?? "")) return;
    const attributes = (opening.attributes as Node[]) ?? [];
    if (attributes.some((a) => (a.name as { name?: string } | undefined)?.name === "data-src")) return;
    const line = lineOf(code, opening.start!);
    inserts.push({ at: name.end!, text: ` data-src="${path}:${line}" data-component="${component}"` });
  });
  let out = code;
  for (const { at, text } of inserts.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

function lineOf(code: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (code.charCodeAt(i) === 10) line++;
  return line;
}

/** The name a function node is known by: its own, or the variable it is assigned to. */
function componentName(node: Node, parent: Node | null): string | null {
  const own = (node.id as { name?: string } | null | undefined)?.name;
  if (own) return own;
  if (parent?.type === "VariableDeclarator") return (parent.id as { name?: string }).name ?? null;
  return null;
}

function walk(node: unknown, component: string, visit: (opening: Node, component: string) => void, parent: Node | null = null): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, component, visit, parent);
    return;
  }
  if (!node || typeof node !== "object") return;
  const n = node as Node;
  let inside = component;
  if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") {
    const name = componentName(n, parent);
    if (name && /^[A-Z]/.test(name)) inside = name;
  }
  if (n.type === "JSXOpeningElement") visit(n, inside);
  for (const key in n) {
    if (key === "type" || key === "start" || key === "end") continue;
    const value = n[key];
    if (value && typeof value === "object") walk(value, inside, visit, n);
  }
}
