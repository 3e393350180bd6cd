import { grantedAccess } from "../test/access";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { silentLogger } from "../lib/logger";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { healthyAppRuntime, memoryApp } from "../test/memory-app";
import { scriptedShell } from "../test/scripted-shell";
import { chunksOf, memoryRunStore, memoryWorkspace } from "../test/memory-workspace";
import { createModelClient } from "./model-client";
import { createRunManager, type Run } from "./runs";
import type { AppProblem, AppRuntime } from "./ports";
import { AFTER_PREVIEW_LOAD_MS, checkApp } from "./verify";

// Verify, then repair, through the run manager on in-memory ports: the scripted model server plays the
// model, and an in-memory app judges the workspace's files the way a dev server would.
let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const PROJECT = "p1";
const BROKEN_APP = 'import { Header } from "./missing";\nexport default function App() {\n  return <Header />;\n}\n';

function setup(
  o: {
    repairRounds?: number;
    files?: Record<string, string>;
    configured?: boolean;
    /** false: the server has no browser, so the app's page is only fetched, never run. */
    browser?: boolean;
    shell?: Record<string, (files: Map<string, string>) => void>;
    /** Wraps the in-memory app (an open preview beside it, say). */
    app?: (runtime: AppRuntime, fileMap: Map<string, string>) => AppRuntime;
  } = {},
) {
  const runs = memoryRunStore({ [PROJECT]: { ownerId: "alice", name: "Todo" } });
  const workspace = memoryWorkspace(o.files ?? { "src/main.tsx": 'import App from "./App";\n' });
  const app = memoryApp(workspace.fileMap, { configured: o.configured, browser: o.browser });
  const withApp = {
    ...workspace,
    app: o.app ? o.app(app.runtime, workspace.fileMap) : app.runtime,
    sandbox: o.shell ? scriptedShell(workspace.fileMap, o.shell) : null,
  };
  const manager = createRunManager({
    store: runs.store,
    conversations: runs.store,
    workspaces: { forProject: () => withApp },
    model: { client: createModelClient({ baseUrl: model.baseUrl, apiKey: "test" }), name: "fake-model" },
    search: { kind: "none" },
    logger: silentLogger,
    agent: { limits: { backoffBaseMs: 5, idleTimeoutMs: 5_000, verifySettleMs: 0, repairRounds: o.repairRounds ?? 3 }, progressSaveMs: 10 },
  });
  return { manager, runs, workspace, app };
}

async function runToEnd(manager: ReturnType<typeof setup>["manager"], content: string) {
  const run: Run = await manager.start(grantedAccess("alice", PROJECT), { projectId: PROJECT, content });
  const events = await new Promise<StreamEvent[]>((resolve) => {
    const all: StreamEvent[] = [];
    run.subscribe((e) => {
      all.push(e);
      if (e.type === "done") resolve(all);
    });
  });
  return { run, events, text: chunksOf(events), steps: events.flatMap((e) => (e.type === "chunk" && e.step ? [`${e.step}: ${e.content.trim()}`] : [])) };
}

const userMessages = (i: number) => model.requests[i]!.body.messages.filter((m) => m.role === "user").map((m) => String(m.content));

describe("verify, then repair", () => {
  test("a check that finds a bad import sends it to the model; its fix ends the run as done with 'App runs without errors'", async () => {
    const { manager, runs, workspace } = setup();
    model.enqueue(
      turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: BROKEN_APP } }]),
      turn.text("Your app is ready."),
      turn.toolCalls([{ id: "w2", name: "write_file", arguments: { path: "src/missing.tsx", content: "export const Header = () => <h1>Hi</h1>;\n" } }]),
      turn.text("Fixed the missing import."),
    );
    const r = await runToEnd(manager, "Build a header");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    expect(model.requests).toHaveLength(4);
    // The problem reached the model as a new step, with file, line and the dev server's words.
    const repair = userMessages(2).at(-1)!;
    expect(repair).toContain("repair round 1 of 3");
    expect(repair).toContain('[build] src/App.tsx:1 — Failed to resolve import "./missing" from "src/App.tsx"');
    // The list is current: the model need not ask get_problems for it again (a tool call's worth of tokens).
    expect(repair).toContain("This list is current");
    expect(model.requests[2]!.body.messages.at(-2)).toEqual({ role: "assistant", content: "Your app is ready." });
    expect(r.steps).toEqual([
      "completed: Created src/App.tsx",
      "in_progress: Checking the app…",
      "completed: Found 1 problem, fixing (1/3)",
      "completed: Created src/missing.tsx",
      "in_progress: Checking the app…",
      "completed: App runs without errors",
    ]);
    expect(workspace.fileMap.has("src/missing.tsx")).toBe(true);
    const saved = runs.saved.get(r.run.messageId)!;
    expect(saved.status).toBe("complete");
    expect(saved.content).toContain("App runs without errors");
    expect(saved.content).not.toContain("Checking the app");
    expect(saved.actions.map((a) => a.description)).toContain("Found 1 problem, fixing (1/3)");
  });

  test("a model that never fixes it stops after AGENT_REPAIR_ROUNDS with a message naming the remaining problem", async () => {
    const { manager, runs } = setup({ repairRounds: 2 });
    model.enqueue(turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: BROKEN_APP } }]));
    model.respondWith(() => turn.text("It should work now."));
    const r = await runToEnd(manager, "Build a header");
    // The write, the first finish, then one reply per repair round: 2 rounds, then the run gives up.
    expect(model.requests).toHaveLength(4);
    expect(userMessages(3).at(-1)).toContain("repair round 2 of 2");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "failed" });
    const error = r.events.flatMap((e) => (e.type === "error" ? [e.message] : []))[0]!;
    expect(error).toStartWith('The app still has problems after 2 repair rounds: [build] src/App.tsx:1 — Failed to resolve import "./missing"');
    expect(error).not.toContain("?.");
    expect(r.steps.filter((s) => s.startsWith("completed: Found") || s.startsWith("completed: App"))).toEqual([
      "completed: Found 1 problem, fixing (1/2)",
      "completed: Found 1 problem (0 fixed, 1 left), fixing (2/2)",
      "completed: App still has 1 problem after 2 repair rounds",
    ]);
    expect(runs.saved.get(r.run.messageId)).toMatchObject({ status: "failed", content: expect.stringContaining("**Error:** The app still has problems") });
  });

  test("each repair round says which problems were fixed and which remain", async () => {
    const twoMissing =
      'import { Header } from "./missing";\nimport { Footer } from "./footer";\nexport default function App() {\n  return <><Header /><Footer /></>;\n}\n';
    const { manager } = setup();
    model.enqueue(
      turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: twoMissing } }]),
      turn.text("Done."),
      turn.toolCalls([{ id: "w2", name: "write_file", arguments: { path: "src/missing.tsx", content: "export const Header = () => <h1>Hi</h1>;\n" } }]),
      turn.text("Fixed one."),
      turn.toolCalls([{ id: "w3", name: "write_file", arguments: { path: "src/footer.tsx", content: "export const Footer = () => <p>Bye</p>;\n" } }]),
      turn.text("Fixed both."),
    );
    const r = await runToEnd(manager, "Build a page");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const second = userMessages(4).at(-1)!;
    expect(second).toContain("repair round 2 of 3");
    expect(second).toMatch(/Fixed since the last round:\n- .*"\.\/missing"/);
    expect(second).toMatch(/Still there:\n1\. .*"\.\/footer"/);
    expect(r.steps.filter((s) => s.startsWith("completed: Found") || s.startsWith("completed: App"))).toEqual([
      "completed: Found 2 problems, fixing (1/3)",
      "completed: Found 1 problem (1 fixed, 1 left), fixing (2/3)",
      "completed: App runs without errors",
    ]);
  });

  test("with no browser to run the page, a check that finds nothing says 'Compiles; not run in a browser', never that the app runs", async () => {
    const { manager, runs } = setup({ browser: false });
    model.enqueue(
      turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: BROKEN_APP } }]),
      turn.text("Done."),
      turn.toolCalls([{ id: "w2", name: "write_file", arguments: { path: "src/missing.tsx", content: "export const Header = () => <h1>Hi</h1>;\n" } }]),
      turn.text("Fixed."),
    );
    const r = await runToEnd(manager, "Build a header");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    // A compile error is still found and repaired without a browser.
    expect(r.steps.filter((s) => /Checking|Found|App runs|Compiles/.test(s))).toEqual([
      "in_progress: Checking the app…",
      "completed: Found 1 problem, fixing (1/3)",
      "in_progress: Checking the app…",
      "completed: Compiles; not run in a browser",
    ]);
    const saved = runs.saved.get(r.run.messageId)!;
    expect(saved.content).toContain("Compiles; not run in a browser");
    expect(saved.content).not.toContain("App runs without errors");
  });

  describe("console warnings", () => {
    const keyWarning: AppProblem = {
      source: "browser",
      message: 'Each child in a list should have a unique "key" prop. Check the render method of `List`.',
      file: "src/List.tsx",
      line: 4,
    };
    const withWarning = (runtime: AppRuntime): AppRuntime => ({
      ...runtime,
      problemsSince: async (since) => [...(await runtime.problemsSince(since)), keyWarning],
    });

    test("a React key warning alone starts no repair round: the run ends, the step names the warning", async () => {
      const { manager } = setup({ app: withWarning });
      model.enqueue(turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: FIXED_APP } }]), turn.text("Done."));
      const r = await runToEnd(manager, "Build a list");
      expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
      expect(model.requests).toHaveLength(2);
      expect(r.steps.at(-1)).toBe("completed: App runs without errors (1 warning)");
    });

    test("beside an error it is listed, labelled a warning, and not counted as a problem", async () => {
      const { manager } = setup({ app: withWarning });
      model.enqueue(
        turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: BROKEN_APP } }]),
        turn.text("Done."),
        turn.toolCalls([{ id: "w2", name: "write_file", arguments: { path: "src/App.tsx", content: FIXED_APP } }]),
        turn.text("Fixed."),
      );
      const r = await runToEnd(manager, "Build a list");
      expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
      expect(r.steps).toContain("completed: Found 1 problem, fixing (1/3)");
      expect(userMessages(2).at(-1)).toContain("[browser warning] src/List.tsx:4 — Each child in a list");
    });
  });

  test("files changed only by commands (run_shell, run_code) are checked too: the break is found and repaired", async () => {
    const sed = "sed -i 's|<h1>Hi</h1>|<Header />|' src/App.tsx";
    const code = 'require("fs").writeFileSync("src/missing.tsx", "export const Header = () => <h1>Hi</h1>;\\n");';
    const { manager, workspace } = setup({
      files: { "src/main.tsx": 'import App from "./App";\n', "src/App.tsx": "export default function App() {\n  return <h1>Hi</h1>;\n}\n" },
      shell: {
        [sed]: (files) => files.set("src/App.tsx", BROKEN_APP),
        [code]: (files) => files.set("src/missing.tsx", "export const Header = () => <h1>Hi</h1>;\n"),
      },
    });
    model.enqueue(
      turn.toolCalls([{ id: "s1", name: "run_shell", arguments: { command: sed } }]),
      turn.text("Swapped in the header."),
      turn.toolCalls([{ id: "s2", name: "run_code", arguments: { language: "javascript", code } }]),
      turn.text("Added the missing header."),
    );
    const r = await runToEnd(manager, "Use a Header component");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    expect(model.requests).toHaveLength(4);
    expect(userMessages(2).at(-1)).toContain('[build] src/App.tsx:1 — Failed to resolve import "./missing" from "src/App.tsx"');
    expect(r.steps.filter((s) => /Checking|Found|App runs/.test(s))).toEqual([
      "in_progress: Checking the app…",
      "completed: Found 1 problem, fixing (1/3)",
      "in_progress: Checking the app…",
      "completed: App runs without errors",
    ]);
    expect(workspace.fileMap.has("src/missing.tsx")).toBe(true);
  });

  test("a run that changed no files does no verification", async () => {
    const { manager, app } = setup({ files: { "src/App.tsx": BROKEN_APP } });
    model.enqueue(turn.toolCalls([{ id: "r1", name: "read_file", arguments: { path: "src/App.tsx" } }]), turn.text("It imports ./missing."));
    const r = await runToEnd(manager, "What does App import?");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    expect(model.requests).toHaveLength(2);
    expect(app.calls.status + app.calls.problemsSince + app.calls.typeCheck).toBe(0);
    expect(r.text).not.toContain("Checking the app");
  });

  test("a project without an app (no workflow command) is checked silently: no steps, the run ends as it would", async () => {
    const { manager, app } = setup({ configured: false, files: {} });
    model.enqueue(turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "notes.md", content: "# Notes" } }]), turn.text("Saved."));
    const r = await runToEnd(manager, "Take a note");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    expect(app.calls.typeCheck).toBe(1);
    expect(app.calls.restart).toBe(0);
    expect(r.steps).toEqual(["completed: Created notes.md"]);
    expect(model.requests).toHaveLength(2);
  });

  test("AGENT_REPAIR_ROUNDS=0 turns the check off", async () => {
    const { manager, app } = setup({ repairRounds: 0 });
    model.enqueue(turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: BROKEN_APP } }]), turn.text("Done."));
    const r = await runToEnd(manager, "Build");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    expect(app.calls.status).toBe(0);
  });

  test("an app that crashed is restarted before it is judged; its log goes to the model when it stays down", async () => {
    const { manager, app } = setup();
    app.crash(1, "Error: Cannot find module 'express'\n", { restartFails: true });
    model.enqueue(
      turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "server.js", content: "require('express')\n" } }]),
      turn.text("Server written."),
    );
    model.respondWith(() => turn.text("Still done."));
    const r = await runToEnd(manager, "Build a server");
    expect(app.calls.restart).toBeGreaterThanOrEqual(1);
    const repair = userMessages(2).at(-1)!;
    expect(repair).toContain("[server] — The app is not running (crashed with exit code 1).");
    expect(repair).toContain("Error: Cannot find module 'express'");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "failed" });
  });

  test("the same failing call three times still stops as stuck, without a check", async () => {
    const { manager, app } = setup();
    model.enqueue(turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: BROKEN_APP } }]));
    model.respondWith(() => turn.toolCalls([{ name: "edit_file", arguments: { path: "src/Nope.tsx", edits: [{ oldText: "a", newText: "b" }] } }]));
    const r = await runToEnd(manager, "Edit");
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "failed" });
    expect(r.events.find((e) => e.type === "error")).toMatchObject({
      message: expect.stringContaining("The agent was stuck: the same edit_file call failed 3 times"),
    });
    expect(app.calls.status).toBe(0);
  });
});

/**
 * A preview open beside the chat: `delayMs` after the check first asks about it following a change of
 * src/App.tsx, the page has loaded that App and reported what it threw while rendering it (an App that
 * compiles but throws at render, which no server-side page load can see).
 */
function previewBeside(delayMs = 400) {
  const thrown: AppProblem[] = [];
  let loadedAt = new Date(Date.now() - 60_000);
  let loading: string | undefined;
  const polls = { count: 0 };
  const wrap = (runtime: AppRuntime, fileMap: Map<string, string>): AppRuntime => ({
    ...runtime,
    problemsSince: async (since) => [...(await runtime.problemsSince(since)), ...thrown],
    previewLoad: async () => {
      polls.count++;
      const app = fileMap.get("src/App.tsx");
      if (app !== loading) {
        loading = app;
        setTimeout(() => {
          thrown.length = 0;
          const error = /throw new Error\("([^"]+)"\)/.exec(app ?? "")?.[1];
          if (error) thrown.push({ source: "browser", file: "src/App.tsx", line: 2, message: `Uncaught Error: ${error}` });
          loadedAt = new Date();
        }, delayMs);
      }
      return { loadedAt };
    },
  });
  return { wrap, polls };
}
const THROWING_APP = 'export default function App() {\n  throw new Error("items is not defined");\n}\n';
const FIXED_APP = "export default function App() {\n  return <h1>Items</h1>;\n}\n";

describe("an open preview", () => {
  test("the check waits for the preview to load the change: what the page threw at render reaches the model, and the fix passes", async () => {
    const preview = previewBeside(400);
    const { manager } = setup({ app: preview.wrap });
    model.enqueue(
      turn.toolCalls([{ id: "w1", name: "write_file", arguments: { path: "src/App.tsx", content: THROWING_APP } }]),
      turn.text("Your app is ready."),
      turn.toolCalls([{ id: "w2", name: "write_file", arguments: { path: "src/App.tsx", content: FIXED_APP } }]),
      turn.text("Fixed."),
    );
    const r = await runToEnd(manager, "List the items");
    expect(model.requests).toHaveLength(4);
    const repair = userMessages(2).at(-1)!;
    expect(repair).toContain("repair round 1 of 3");
    expect(repair).toContain("[browser] src/App.tsx:2 — Uncaught Error: items is not defined");
    expect(r.steps.filter((s) => s.startsWith("completed: Found") || s.startsWith("completed: App"))).toEqual([
      "completed: Found 1 problem, fixing (1/3)",
      "completed: App runs without errors",
    ]);
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "complete" });
  });

  test("with no preview open the check does not wait", async () => {
    const runtime = healthyAppRuntime(FIXED_APP);
    let polls = 0;
    const app: AppRuntime = { ...runtime, previewLoad: async () => (polls++, null) };
    const started = performance.now();
    const since = new Date();
    expect(await checkApp({ app, settleMs: 0, lastChangedAt: () => since }, since, new AbortController().signal)).toEqual({ problems: [], ran: true });
    expect(performance.now() - started).toBeLessThan(150);
    expect(polls).toBe(1);
  });

  test("a preview that already loaded the change is not waited for; one that never loads it is waited for at most previewWaitMs", async () => {
    const runtime = healthyAppRuntime(FIXED_APP);
    const since = new Date(Date.now() - 1_000);
    const signal = new AbortController().signal;
    let started = performance.now();
    const loaded: AppRuntime = { ...runtime, previewLoad: async () => ({ loadedAt: new Date(since.getTime() + 10) }) };
    await checkApp({ app: loaded, settleMs: 0, lastChangedAt: () => since }, since, signal);
    expect(performance.now() - started).toBeLessThan(AFTER_PREVIEW_LOAD_MS + 150);

    started = performance.now();
    const stuck: AppRuntime = { ...runtime, previewLoad: async () => ({ loadedAt: new Date(since.getTime() - 10) }) };
    await checkApp({ app: stuck, settleMs: 0, lastChangedAt: () => since, previewWaitMs: 400 }, since, signal);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(400 + 300);
  });

  test("a change that does not compile is not waited for: the page has nothing new to run", async () => {
    const since = new Date();
    const unresolved: AppProblem = {
      source: "build",
      file: "src/App.tsx",
      line: 1,
      message: 'Failed to resolve import "./Gone" from "src/App.tsx". Does the file exist?',
    };
    const app: AppRuntime = {
      ...healthyAppRuntime(FIXED_APP),
      loadPage: async () => ({ problems: [unresolved], ran: false }),
      previewLoad: async () => ({ loadedAt: new Date(since.getTime() - 10) }),
    };
    const started = performance.now();
    expect((await checkApp({ app, settleMs: 0, lastChangedAt: () => since, previewWaitMs: 2_000 }, since, new AbortController().signal))?.problems).toEqual([
      unresolved,
    ]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
