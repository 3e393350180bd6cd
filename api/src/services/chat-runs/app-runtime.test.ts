import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { grantedAccess } from "../../test/access";
import type { StreamEvent } from "@shared/events/stream";
import type { Message } from "@shared/schemas/message";
import { chatTestApp, readEvents } from "../../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../../test/fake-model-server";
import { localSuiteGate } from "../../test/local-sandbox-support";
import type { Problem } from "@shared/schemas/problems";
import { silentLogger } from "../../lib/logger";
import { REPORTS_PATH } from "../../realtime/preview-reporter/inject";
import { createReportsEndpoint } from "../../realtime/preview-reporter/reports-endpoint";
import { reportFromPreview } from "../problems";
import { createRunWorkspace } from "./workspace";

// Verify, then repair, for real: the React (Vite) template in a local sandbox, a model (scripted) that
// writes an App.tsx importing a file that does not exist, and the check that must find it and tell the model.
const BROKEN_APP = 'import { Header } from "./missing";\n\nexport default function App() {\n  return <Header />;\n}\n';
const MISSING = "export function Header() {\n  return <h1>Plant tracker</h1>;\n}\n";
// Compiles and type-checks; throws as it renders.
const THROWS_AT_RENDER =
  'export default function App() {\n  const plants = JSON.parse("null") as string[];\n  return <ul>{plants.map((p) => <li key={p}>{p}</li>)}</ul>;\n}\n';
const RENDERS = "export default function App() {\n  const plants: string[] = [];\n  return <ul>{plants.map((p) => <li key={p}>{p}</li>)}</ul>;\n}\n";

if (await localSuiteGate("app runtime", { sameOnEveryDatabase: true })) {
  let model: FakeModelServer;
  let t: Awaited<ReturnType<typeof chatTestApp>>;
  beforeAll(async () => {
    model = await startFakeModelServer();
    // Long enough for Vite to recompile after the fix on a busy machine: a check too soon sees the old error and asks
    // the scripted model for a repair round it has no answer for.
    t = await chatTestApp({ model, agent: { limits: { verifySettleMs: 2_000 } } });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await model.close();
  }, 60_000);

  const textOf = (events: StreamEvent[]) => events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])).join("");

  describe("the app runtime on a local sandbox", () => {
    test("a Vite app whose App.tsx imports a missing file: the check finds the import error, the model gets it, its fix ends the run as done", async () => {
      const user = t.user("verify");
      const projectId = await user.project("Verify");
      model.reset();
      model.enqueue(
        turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "react" } }]),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: BROKEN_APP } }]),
        turn.text("Your app is ready."),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/missing.tsx", content: MISSING } }]),
        turn.text("Added the missing Header."),
      );
      const events = await readEvents(await user.request("POST", "/api/messages/stream", { projectId, content: "A plant tracker" }));
      // When this fails, the run's own words say which round went wrong (CI keeps only the output).
      if (events.at(-1)?.type !== "done" || (events.at(-1) as { status?: string }).status !== "complete") {
        console.error(`run events:\n${textOf(events)}\n${JSON.stringify(events.filter((e) => e.type !== "chunk"))}`);
        console.error(`model requests: ${model.requests.length}; last: ${JSON.stringify(model.requests.at(-1)?.body.messages.at(-1))}`);
      }
      expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
      expect(model.requests).toHaveLength(5);
      const repair = model.requests[3]!.body.messages.at(-1)!;
      expect(repair.role).toBe("user");
      expect(String(repair.content)).toContain('[build] src/App.tsx:1 — Failed to resolve import "./missing" from "src/App.tsx"');
      const text = textOf(events);
      expect(text).toContain("Found 1 problem, fixing (1/3)");
      expect(text).toContain("App runs without errors");
      const saved = (await (await user.request("GET", `/api/messages/${projectId}`)).json()) as Message[];
      expect(saved.at(-1)!.content).toMatch(/Found 1 problem, fixing \(1\/3\)\n[\s\S]*Created src\/missing\.tsx\n[\s\S]*App runs without errors/);

      // The runtime the run used: the app runs on the template's port and its log is the dev server's output.
      const app = createRunWorkspace(t.deps, t.deps.sandboxes, grantedAccess(user.uid, projectId)).app!;
      expect(await app.status()).toEqual({ status: "running", exitCode: null, ports: [5173] });
      expect(await app.probe()).toEqual({ port: 5173, httpStatus: 200 });
      // No preview is open: the page ran in the server's headless browser.
      expect(await app.loadPage!()).toEqual({ problems: [], ran: true });
      expect(await app.logTail(20_000)).toContain("Failed to resolve import");
      // Restart stops the app (whole tree: the port is free again) and starts it afresh, with a fresh log.
      const restarted = await app.restart();
      expect(restarted).toEqual({ status: "running", exitCode: null, ports: [5173] });
      // The process keeps one log across restarts: what the fresh start printed has no error.
      const log = await app.logTail(20_000);
      expect(log.slice(log.lastIndexOf("ready in"))).not.toContain("Failed to resolve import");
      expect(await app.probe()).toEqual({ port: 5173, httpStatus: 200 });
    }, 300_000);

    test("with no preview open, the check runs the page in the server's headless browser: a crash at render reaches the model, its fix passes", async () => {
      const user = t.user("render");
      const projectId = await user.project("Render");
      model.reset();
      model.enqueue(
        turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "react" } }]),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: THROWS_AT_RENDER } }]),
        turn.text("Your app is ready."),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: RENDERS } }]),
        turn.text("Fixed the list."),
      );
      const events = await readEvents(await user.request("POST", "/api/messages/stream", { projectId, content: "A plant list" }));
      if (events.at(-1)?.type !== "done" || (events.at(-1) as { status?: string }).status !== "complete" || model.requests.length !== 5) {
        console.error(`run events:\n${textOf(events)}\n${JSON.stringify(events.filter((e) => e.type !== "chunk"))}`);
      }
      expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
      expect(model.requests).toHaveLength(5);
      const repair = String(model.requests[3]!.body.messages.at(-1)!.content);
      // The line is the served module's (Vite's transform adds lines above the source), as a preview's report says it.
      expect(repair).toMatch(/\[browser\] src\/App\.tsx:\d+ — TypeError: Cannot read properties of null \(reading 'map'\)/);
      const text = textOf(events);
      expect(text).toContain("Found 1 problem, fixing (1/3)");
      expect(text).toContain("App runs without errors");
    }, 300_000);

    test("an open preview that never loads the change (it kept the code it was loading): the check runs the page headless, finds the crash, asks the preview to reload, and lists the crash in Problems as the check's", async () => {
      const user = t.user("stale-preview");
      const projectId = await user.project("Stale preview");
      model.reset();
      model.enqueue(
        turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "react" } }]),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: THROWS_AT_RENDER } }]),
        turn.text("Your app is ready."),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: RENDERS } }]),
        turn.text("Fixed the list."),
      );
      // The open preview, through the reporter's own endpoint as the proxy answers it: a page that loaded before
      // the run and pings every 500 ms, never running newer code (it ignores the answer that asks it to reload).
      const endpoint = createReportsEndpoint({
        sink: { report: (sandboxId, reports) => reportFromPreview(t.deps, sandboxId, reports), viteError: async () => undefined },
        logger: silentLogger,
      });
      const pageLoadedAt = Date.now();
      const answers: unknown[] = [];
      const seenInProblems: Problem[] = [];
      let pinging = true;
      const pinger = (async () => {
        while (pinging) {
          const [row] = await t.deps.sql<{ sandboxId: string | null }[]>`select sandbox_id as "sandboxId" from projects where id = ${projectId}`;
          if (row?.sandboxId) {
            const host = `5173-${row.sandboxId}.localhost`;
            const res = await endpoint.handle(
              new Request(`http://${host}${REPORTS_PATH}`, {
                method: "POST",
                headers: { origin: `http://${host}`, "content-type": "application/json" },
                body: JSON.stringify({ reports: [{ kind: "loaded", message: "", loadAgeMs: Date.now() - pageLoadedAt }] }),
              }),
              row.sandboxId,
              host,
            );
            if (res?.status === 200) answers.push(await res.json());
          }
          // What the user's Problems panel reads meanwhile.
          const listed = (await (await user.request("GET", `/api/sandbox/${projectId}/problems`)).json()) as Problem[];
          seenInProblems.push(...listed.filter((p) => p.foundByCheck));
          await Bun.sleep(500);
        }
      })();
      let events: StreamEvent[];
      try {
        events = await readEvents(await user.request("POST", "/api/messages/stream", { projectId, content: "A plant list" }));
      } finally {
        pinging = false;
        await pinger;
      }
      if (events.at(-1)?.type !== "done" || (events.at(-1) as { status?: string }).status !== "complete" || model.requests.length !== 5) {
        console.error(`run events:\n${textOf(events)}\n${JSON.stringify(events.filter((e) => e.type !== "chunk"))}`);
      }
      expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
      expect(model.requests).toHaveLength(5);
      // The preview never confirmed the change, so the crash the model was sent came from the headless browser.
      const repair = String(model.requests[3]!.body.messages.at(-1)!.content);
      expect(repair).toMatch(/\[browser\] src\/App\.tsx:\d+ — TypeError: Cannot read properties of null \(reading 'map'\)/);
      const text = textOf(events);
      expect(text).toContain("Found 1 problem, fixing (1/3)");
      // Round 2's fix ran headless too: only then is the app said to run.
      expect(text).toContain("App runs without errors");
      // The stale preview was asked to reload.
      expect(answers).toContainEqual({ reload: true });
      // The user saw the crash in Problems, marked as found by the check, with its stack.
      expect(seenInProblems.map((p) => p.message)).toContainEqual(expect.stringContaining("TypeError: Cannot read properties of null (reading 'map')"));
      expect(seenInProblems.some((p) => p.source === "browser" && p.file === "src/App.tsx" && (p.detail ?? "").includes("App"))).toBe(true);
    }, 300_000);

    test("an app that cannot start is reported with its log, and read by problemsSince", async () => {
      const user = t.user("crash");
      const projectId = await user.project("Crash");
      const w = createRunWorkspace(t.deps, t.deps.sandboxes, grantedAccess(user.uid, projectId));
      await w.files.write("server.js", "const x = ;\n");
      await w.workflow.set("node server.js", 3000);
      const status = await w.app!.restart();
      expect(status).toMatchObject({ status: "crashed", exitCode: 1 });
      expect(await w.app!.logTail(4_000)).toContain("SyntaxError: Unexpected token ';'");
      const problems = await w.app!.problemsSince(new Date(0));
      expect(problems).toContainEqual(expect.objectContaining({ source: "build", message: expect.stringContaining("SyntaxError: Unexpected token ';'") }));
    }, 120_000);
  });
}
