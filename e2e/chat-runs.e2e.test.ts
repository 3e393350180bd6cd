/**
 * Agent Chat runs beyond one view of them, end to end: real Chromium, the real app with the scripted model
 * (api/src/test/fake-model-server.ts), real Auth emulator. A run that ends while the tab is hidden, one
 * stopped after a reload reattached to it, one whose connection drops, and one that builds a React app the
 * Files and Preview views then show (a real local sandbox). The conversation itself: chat.e2e.test.ts.
 * Screenshots go to e2e/artifacts/chat-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { type CuttableProxy, startCuttableProxy } from "../api/src/test/tcp-proxy";
import type { AppServer } from "./support/app-server";
import { runCleanups } from "./support/api";
import { assistant, badge, type ChatSession, idle, input, openChat as openChatAt, setTabHidden, shot, signIn, startChatSession, toast } from "./support/chat";
import { bearerToken } from "./support/sign-in";
import type { Stack } from "./support/stack";

let chat: ChatSession;
let stack: Stack;
let model: FakeModelServer;
let app: AppServer;
let page: Page;
let projectId: string;
const cleanups: Array<() => unknown> = [];

const url = (path: string) => `${app.url}${path}`;
const openChat = (p: Page, id: string, base = app.url) => openChatAt(p, id, base);
const withDiagnostics = (name: string, pages: Page[], body: () => Promise<void>) => chat.withDiagnostics(name, pages, body);
const newProject = (name: string, bearer?: string) => chat.newProject(name, bearer);

beforeAll(async () => {
  chat = await startChatSession("e2e-chat-runs-", "Chat runs E2E", cleanups);
  ({ stack, model, app, page, projectId } = chat);
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("chat runs", () => {
  test("a run that finishes while the tab is hidden: 'AI Processing Complete', and on return the background note", async () => {
    await withDiagnostics("hidden", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ delayMs: 1500 }, { text: "Finished while you were away." }));
      await openChat(page, projectId);
      await input(page).fill("Work in the background");
      await input(page).press("Enter");
      await page.getByTestId("stop-button").waitFor();
      await setTabHidden(page, true);
      await toast(page, "AI Processing Complete").waitFor();
      await idle(page);
      const refetched = page.waitForResponse((r) => r.url().endsWith(`/api/messages/${projectId}`) && r.request().method() === "GET");
      await setTabHidden(page, false);
      await refetched;
      const note = toast(page, "AI Processing Complete");
      await note.filter({ hasText: "processed in the background" }).waitFor();
      await assistant(page).last().getByText("Finished while you were away.").waitFor();
    });
  }, 60_000);

  test("Stop keeps the partial answer, marked stopped; a reload mid-run reattaches to the stream", async () => {
    await withDiagnostics("stop", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ text: "Half of the answer." }, { delayMs: 5000 }, { text: " The other half." }));
      await openChat(page, projectId);
      await input(page).fill("A long task");
      await input(page).press("Enter");
      await assistant(page).last().getByText("Half of the answer.").waitFor();

      await page.reload();
      // Reattached: the replayed text and the Stop button, without sending anything again.
      await assistant(page).last().getByText("Half of the answer.").waitFor();
      await page.getByTestId("stop-button").waitFor();
      expect(model.requests).toHaveLength(1);
      // Let the scroll to the end settle (a shot taken mid-scroll shows the sticky header out of place).
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await shot(page, "resumed");

      await page.getByTestId("stop-button").click();
      await idle(page);
      const last = assistant(page).last();
      await last.getByTestId("message-status").filter({ hasText: "Stopped" }).waitFor();
      expect(await last.textContent()).toContain("Half of the answer.");
      expect(await last.textContent()).not.toContain("The other half.");
    });
  }, 60_000);

  test("a connection dropped mid-run: 'Connection interrupted', then the completed work shows", async () => {
    let proxy: CuttableProxy | null = null;
    const viaProxy = await stack.newPage({ width: 1440, height: 900 });
    await withDiagnostics("dropped", [viaProxy], async () => {
      proxy = startCuttableProxy({ hostname: "127.0.0.1", port: Number(new URL(app.url).port) });
      const base = `http://127.0.0.1:${proxy.port}`;
      await signIn(viaProxy, base, stack.emulatorHost);
      const bearer = await bearerToken(viaProxy, base);
      const id = await newProject("Chat dropped", bearer);
      model.reset();
      model.enqueue(turn.steps({ text: "Starting on it." }, { delayMs: 2000 }, { text: " All of the work is done." }));
      await openChat(viaProxy, id, base);
      await input(viaProxy).fill("Do the work");
      await input(viaProxy).press("Enter");
      await assistant(viaProxy).last().getByText("Starting on it.").waitFor();

      proxy.cut();
      proxy.restore();
      await toast(viaProxy, "Connection interrupted").filter({ hasText: "Refreshing to show completed work..." }).waitFor();
      await shot(viaProxy, "interrupted");
      await assistant(viaProxy).last().getByText("All of the work is done.", { exact: false }).waitFor({ timeout: 20_000 });
      await idle(viaProxy);
    });
    (proxy as CuttableProxy | null)?.stop();
    await viaProxy.context().close();
  }, 300_000);

  test("a person asks for a React app: create_boilerplate and write_file run, the files appear, the Preview renders the app", async () => {
    await withDiagnostics("react-app", [page], async () => {
      const id = await newProject("Chat React app");
      const app_tsx = "export default function App() {\n  return <h1>Plant tracker by the agent</h1>;\n}\n";
      model.reset();
      model.enqueue(
        turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "react" } }], "I'll start from the React template.\n"),
        turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: app_tsx } }]),
        turn.text("Your plant tracker is ready in the Preview."),
      );
      await openChat(page, id);
      await input(page).fill("Build me a plant tracker in React");
      await input(page).press("Enter");
      await badge(page, "create_boilerplate", "completed").waitFor({ timeout: 150_000 });
      await badge(page, "write_file", "completed").waitFor({ timeout: 30_000 });
      await assistant(page).last().getByText("Your plant tracker is ready in the Preview.").waitFor({ timeout: 30_000 });
      await idle(page);
      await shot(page, "react-app-chat");

      await page.goto(url(`/project/${id}/files`));
      await page.getByText("src/App.tsx").first().waitFor();
      await page.getByText("package.json").first().waitFor();

      await page.goto(url(`/project/${id}/preview`));
      const frame = page.frameLocator("iframe[title^='Preview of']");
      await frame.getByText("Plant tracker by the agent").waitFor({ timeout: 60_000 });
      await shot(page, "react-app-preview");
    });
  }, 300_000);
});
