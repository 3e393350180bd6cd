/**
 * An in-memory app for engine tests of verify-and-repair: it "runs" the files of a memory workspace the way a
 * dev server would judge them, so a fix written by the model really makes the problem go away. Every relative
 * import (`import x from "./missing"`) that names no file in the map is a build problem, as Vite reports it;
 * `crash()` makes the app exit with a log, `restart()` brings it back. With `browser: false` its page load says
 * the page was not run (no browser on the server).
 *
 * @example
 * const w = memoryWorkspace({ "src/App.tsx": 'import "./missing";' });
 * const app = memoryApp(w.fileMap);
 * await app.runtime.problemsSince(new Date(0)); // [{ source: "build", file: "src/App.tsx", line: 1, … }]
 */
import type { AppProblem, AppRuntime, AppStatus } from "../agent/ports";

const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".jsx", ".css", "/index.ts", "/index.tsx", "/index.js"];
const IMPORT = /(?:import|export)\s[^'"]*?from\s*["'](\.[^"']+)["']|import\s*["'](\.[^"']+)["']/g;

export function memoryApp(fileMap: Map<string, string>, o: { port?: number; configured?: boolean; browser?: boolean } = {}) {
  const port = o.port ?? 5173;
  let state: AppStatus =
    o.configured === false ? { status: "not_configured", exitCode: null, ports: [] } : { status: "running", exitCode: null, ports: [port] };
  let log = "VITE ready in 120 ms\n";
  let restartFails = false;
  const calls = { status: 0, probe: 0, loadPage: 0, problemsSince: 0, restart: 0, typeCheck: 0, logTail: 0 };

  function problems(): AppProblem[] {
    const found: AppProblem[] = [];
    for (const [path, content] of fileMap) {
      if (!/\.(tsx?|jsx?)$/.test(path)) continue;
      content.split("\n").forEach((text, i) => {
        for (const m of text.matchAll(IMPORT)) {
          const spec = (m[1] ?? m[2])!;
          const target = resolve(path, spec);
          if (!EXTENSIONS.some((ext) => fileMap.has(target + ext))) {
            found.push({ source: "build", file: path, line: i + 1, message: `Failed to resolve import "${spec}" from "${path}". Does the file exist?` });
          }
        }
      });
    }
    return found;
  }

  const runtime: AppRuntime = {
    async status() {
      calls.status++;
      return { ...state };
    },
    async probe() {
      calls.probe++;
      return { port, httpStatus: state.status === "running" ? 200 : null };
    },
    async logTail(maxBytes) {
      calls.logTail++;
      return log.slice(-maxBytes);
    },
    async problemsSince() {
      calls.problemsSince++;
      return state.status === "running" ? problems() : [];
    },
    async restart() {
      calls.restart++;
      if (restartFails) {
        log += "(restarted)\n";
        return { ...state };
      }
      state = { status: "running", exitCode: null, ports: [port] };
      log += "VITE ready in 90 ms\n";
      return { ...state };
    },
    // Its page "runs" as a browser would run it (its problems arrive through problemsSince), unless
    // `browser: false`: then it was only fetched, as where the server has no browser.
    async loadPage() {
      calls.loadPage++;
      return { problems: [], ran: o.browser !== false };
    },
    async typeCheck() {
      calls.typeCheck++;
      return null;
    },
  };
  return {
    runtime,
    calls,
    /** The app exits with this code, printing `output` to its log; with `restartFails` a restart does not bring it back. */
    crash(exitCode: number, output: string, c: { restartFails?: boolean } = {}) {
      state = { status: "crashed", exitCode, ports: [] };
      log += output;
      restartFails = c.restartFails ?? false;
    },
  };
}

function resolve(from: string, spec: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const piece of spec.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== ".") parts.push(piece);
  }
  return parts.join("/");
}

/** A running app with nothing wrong: the runtime of `memoryApp` on one src/App.tsx. */
export const healthyAppRuntime = (appSource: string): AppRuntime => memoryApp(new Map([["src/App.tsx", appSource]])).runtime;
