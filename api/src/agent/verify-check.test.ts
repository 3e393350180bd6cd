/**
 * The check's own parts, without a model: when a run last changed something (trackChanges), how problems read
 * to the model (dedupeProblems, formatProblem), and which logged problems the check believes are current.
 */
import { describe, expect, test } from "bun:test";
import { healthyAppRuntime } from "../test/memory-app";
import { memoryWorkspace } from "../test/memory-workspace";
import { scriptedShell } from "../test/scripted-shell";
import type { AppProblem, AppRuntime } from "./ports";
import { checkApp, dedupeProblems, formatProblem, trackChanges } from "./verify";

const FIXED_APP = "export default function App() {\n  return <h1>Items</h1>;\n}\n";

describe("when the run last changed something", () => {
  const commandOptions = { timeoutMs: 1_000, signal: new AbortController().signal };

  test("a command after a write marks the run changed but leaves the last change at the write", async () => {
    const workspace = memoryWorkspace({}, scriptedShell(new Map(), {}));
    const tracked = trackChanges(workspace);
    expect(tracked.changedSince()).toBeNull();
    await tracked.workspace.files.write("src/App.tsx", FIXED_APP);
    const written = tracked.lastChangedAt()!;
    await Bun.sleep(5);
    await tracked.workspace.sandbox!.run("ls", commandOptions);
    expect(tracked.changedSince()).toEqual(written);
    expect(tracked.lastChangedAt()).toEqual(written);
  });

  test("a run that only ran commands counts from its first one", async () => {
    const tracked = trackChanges(memoryWorkspace({}, scriptedShell(new Map(), {})));
    await tracked.workspace.sandbox!.run("sed -i s/a/b/ src/App.tsx", commandOptions);
    const first = tracked.changedSince()!;
    await Bun.sleep(5);
    await tracked.workspace.sandbox!.start("npm run dev", () => {});
    expect(first).not.toBeNull();
    expect(tracked.lastChangedAt()).toEqual(first);
  });

  test("a check that fails part-way leaves no preview wait polling behind it", async () => {
    let polls = 0;
    const since = new Date();
    const app: AppRuntime = {
      ...healthyAppRuntime(FIXED_APP),
      status: async () => {
        throw new Error("sandbox gone");
      },
      previewLoad: async () => (polls++, { loadedAt: new Date(since.getTime() - 10) }),
    };
    await expect(checkApp({ app, settleMs: 0, lastChangedAt: () => since, previewWaitMs: 2_000 }, since, new AbortController().signal)).rejects.toThrow(
      "sandbox gone",
    );
    const after = polls;
    await Bun.sleep(600);
    expect(polls).toBe(after);
  });
});

describe("problems as the model reads them", () => {
  test("the same error from the page and from the dev server log counts once; long messages are cut", () => {
    const problems = dedupeProblems([
      { source: "build", file: "src/App.tsx", line: 2, message: 'Failed to resolve import "./x" from "src/App.tsx". Does the file exist?' },
      {
        source: "server",
        message:
          '12:01:02 PM [vite] Internal server error: Failed to resolve import "./x" from "src/App.tsx". Does the file exist?\n  Plugin: vite:import-analysis',
      },
      { source: "browser", message: "Uncaught TypeError: x is undefined" },
    ]);
    expect(problems.map((p) => p.source)).toEqual(["build", "browser"]);
    // A type error where the dev server already reported one is the same cause; one elsewhere is not.
    const typed = dedupeProblems([
      { source: "build", file: "src/App.tsx", line: 2, message: 'Failed to resolve import "./x" from "src/App.tsx".' },
      { source: "build", file: "src/App.tsx", line: 2, message: "TS2307: Cannot find module './x' or its corresponding type declarations." },
      { source: "build", file: "src/App.tsx", line: 9, message: "TS2322: Type 'string' is not assignable to type 'number'." },
    ]);
    expect(typed.map((p) => p.line)).toEqual([2, 9]);
    const long = formatProblem({ source: "server", message: "e".repeat(2_000) });
    expect(long.length).toBeLessThan(800);
    expect(long).toEndWith("… [cut]");
  });
});

describe("what the check believes", () => {
  /** A running app whose log holds `logged` problems, each with the time it was printed. */
  function appWithLog(logged: { at: number; problem: AppProblem }[], onPageLoad: () => AppProblem[] = () => []): AppRuntime {
    return {
      status: async () => ({ status: "running", exitCode: null, ports: [5173] }),
      probe: async () => ({ port: 5173, httpStatus: 200 }),
      logTail: async () => "",
      problemsSince: async (since) => logged.filter((l) => l.at >= since.getTime()).map((l) => l.problem),
      restart: async () => ({ status: "running", exitCode: null, ports: [5173] }),
      loadPage: async () => ({ problems: onPageLoad(), ran: true }),
      typeCheck: async () => null,
    };
  }
  const stale: AppProblem = {
    source: "build",
    file: "src/App.tsx",
    line: 1,
    message: 'Pre-transform error: Failed to resolve import "./missing" from "src/App.tsx".',
  };
  const crash: AppProblem = { source: "server", message: "TypeError: cannot read properties of undefined (reading 'x')" };
  const signal = new AbortController().signal;

  test("a compile error logged after the change but before the page load, which the load no longer hits, is history", async () => {
    const since = new Date(Date.now() - 1_000);
    const app = appWithLog([
      { at: Date.now() - 500, problem: stale },
      { at: Date.now() - 400, problem: crash },
    ]);
    // The server error stays: the page load does not redo what a request handler threw.
    expect((await checkApp({ app, settleMs: 0 }, since, signal))?.problems).toEqual([crash]);
  });

  test("a compile error the page load makes the dev server print again is current", async () => {
    const since = new Date(Date.now() - 1_000);
    const logged = [{ at: Date.now() - 500, problem: stale }];
    const app = appWithLog(logged, () => {
      logged.push({ at: Date.now(), problem: { ...stale, message: `12:00:01 PM [vite] ${stale.message}` } });
      return [];
    });
    expect((await checkApp({ app, settleMs: 0 }, since, signal))?.problems).toEqual([stale]);
  });

  test("the app ran only when something ran its page: the page load's browser, or an open preview", async () => {
    const since = new Date(Date.now() - 1_000);
    const notRun: AppRuntime = { ...appWithLog([]), loadPage: async () => ({ problems: [], ran: false }) };
    expect(await checkApp({ app: notRun, settleMs: 0 }, since, signal)).toEqual({ problems: [], ran: false });
    const { loadPage: _, ...noLoad } = appWithLog([]);
    expect(await checkApp({ app: noLoad, settleMs: 0 }, since, signal)).toEqual({ problems: [], ran: false });
    expect(await checkApp({ app: appWithLog([]), settleMs: 0 }, since, signal)).toEqual({ problems: [], ran: true });
    const previewOpen: AppRuntime = { ...notRun, previewLoad: async () => ({ loadedAt: new Date() }) };
    expect(await checkApp({ app: previewOpen, settleMs: 0, lastChangedAt: () => since }, since, signal)).toEqual({ problems: [], ran: true });
  });

  test("an open preview that never loads the last change: the page runs in the headless browser instead, and the preview is asked to reload", async () => {
    const since = new Date(Date.now() - 1_000);
    const lastChange = new Date(Date.now() - 500);
    const crashInNewCode: AppProblem = {
      source: "browser",
      file: "src/App.tsx",
      line: 3,
      message: "TypeError: Cannot read properties of null (reading 'map')",
    };
    const reloads: Date[] = [];
    let headless = 0;
    const stalePreview: AppRuntime = {
      ...appWithLog([]),
      // The page compiles; running it is left to the open preview…
      loadPage: async () => ({ problems: [], ran: false, leftToPreview: true }),
      // …which pings on, but runs code that started loading before the change.
      previewLoad: async () => ({ loadedAt: new Date(lastChange.getTime() - 2_000) }),
      runPageHeadless: async () => (headless++, { problems: [crashInNewCode], ran: true }),
      reloadStalePreviews: async (changedAt) => void reloads.push(changedAt),
    };
    const started = Date.now();
    const checked = await checkApp({ app: stalePreview, settleMs: 0, lastChangedAt: () => lastChange, previewWaitMs: 300 }, since, signal);
    expect(checked).toEqual({ problems: [crashInNewCode], ran: true });
    expect(headless).toBe(1);
    expect(reloads).toEqual([lastChange]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // No browser either: compiled, not run, and never "runs without errors".
    const noBrowser: AppRuntime = { ...stalePreview, runPageHeadless: async () => ({ problems: [], ran: false }) };
    expect(await checkApp({ app: noBrowser, settleMs: 0, lastChangedAt: () => lastChange, previewWaitMs: 100 }, since, signal)).toEqual({
      problems: [],
      ran: false,
    });
    expect(reloads).toHaveLength(2);
    // A preview that loads the change is read as before: no headless run, no reload.
    const fresh: AppRuntime = { ...stalePreview, previewLoad: async () => ({ loadedAt: new Date() }) };
    expect(await checkApp({ app: fresh, settleMs: 0, lastChangedAt: () => lastChange, previewWaitMs: 300 }, since, signal)).toEqual({
      problems: [],
      ran: true,
    });
    expect(headless).toBe(1);
    expect(reloads).toHaveLength(2);
  });

  test("without a page load (no loadPage), what the log printed since the change counts as it is", async () => {
    const since = new Date(Date.now() - 1_000);
    const { loadPage: _, ...app } = appWithLog([{ at: Date.now() - 500, problem: stale }]);
    expect((await checkApp({ app, settleMs: 0 }, since, signal))?.problems).toEqual([stale]);
  });
});
