/**
 * Loads the app's page as a browser would fetch it, without a browser: the HTML, then every module script
 * and, transitively, every module it imports from the same server. A dev server compiles a module when it
 * is asked for it, so a bad import or a syntax error anywhere in the app answers 500 here (and is printed
 * to the app's log), exactly as it would break the preview. Vite's error page carries the error as JSON
 * (message, file, line, code frame), which becomes the problem.
 *
 * @example
 * const problems = await crawlPage((path) => fetch(`http://127.0.0.1:5173${path}`));
 */
import type { AppProblem } from "../../agent/ports";
import { projectRelative } from "./log-problems";

const MAX_MODULES = 80;
const SCRIPT_SRC =
  /<script\b[^>]*\btype\s*=\s*["']module["'][^>]*\bsrc\s*=\s*["']([^"']+)["']|<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["'][^>]*\btype\s*=\s*["']module["']/gi;
const IMPORTS = /(?:^|[\s;}])(?:import|export)\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
/** Served by the dev server itself or pre-bundled dependencies: never the project's own code. */
const SKIP = /^\/(@vite\/|@react-refresh|@id\/__x00__|node_modules\/|@fs\/.*\/node_modules\/)/;

export type PageFetch = (path: string) => Promise<Response>;

export async function crawlPage(get: PageFetch): Promise<AppProblem[]> {
  const problems: AppProblem[] = [];
  const page = await get("/");
  const html = await page.text();
  if (page.status >= 500) return [errorProblem("/", page.status, html)];
  if (!(page.headers.get("content-type") ?? "").includes("html")) return problems;

  const queue = [...html.matchAll(SCRIPT_SRC)].map((m) => (m[1] ?? m[2])!).filter(sameServer);
  const seen = new Set<string>();
  while (queue.length && seen.size < MAX_MODULES) {
    const path = queue.shift()!;
    if (seen.has(path) || SKIP.test(path)) continue;
    seen.add(path);
    const res = await get(path);
    const body = await res.text();
    if (res.status >= 400) {
      problems.push(errorProblem(path, res.status, body));
      continue;
    }
    for (const m of body.matchAll(IMPORTS)) {
      const spec = (m[1] ?? m[2])!;
      if (sameServer(spec)) queue.push(new URL(spec, `http://app${path}`).pathname + (spec.includes("?") ? `?${spec.split("?")[1]}` : ""));
    }
  }
  return problems;
}

/** Absolute paths and relative specifiers reach the same server; bare names and other origins do not. */
function sameServer(spec: string): boolean {
  return spec.startsWith("/") ? !spec.startsWith("//") : spec.startsWith("./") || spec.startsWith("../");
}

type ViteError = { message?: string; frame?: string; id?: string; loc?: { file?: string; line?: number } };

/** A failed module as a problem: Vite's error JSON when the page carries one, else the status and text. */
function errorProblem(path: string, status: number, body: string): AppProblem {
  const json = /const error = (\{.*\})\s*\n/.exec(body)?.[1];
  if (json) {
    try {
      const error = JSON.parse(json) as ViteError;
      const file = error.loc?.file ?? error.id;
      const frame = error.frame ? `\n${error.frame}` : "";
      return {
        source: "build",
        message: `${error.message ?? "Error"}${frame}`,
        file: file ? projectRelative(file) : path.slice(1),
        line: error.loc?.line ?? null,
      };
    } catch {
      // not Vite's page after all: fall through
    }
  }
  const text = body
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 500);
  return { source: status >= 500 ? "build" : "server", message: `Loading ${path} answered HTTP ${status}${text ? `: ${text}` : ""}`, file: null, line: null };
}
