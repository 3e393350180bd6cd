/**
 * Plan mode, end to end (issue 27, item 8): real Chromium, the real app with the scripted model, the real
 * Auth emulator. In Plan the model's request offers only the read tools, a write it calls anyway (through the
 * tool interface or written as text) is refused and changes nothing, and "Build this" sends the plan to Build.
 * Screenshot: e2e/artifacts/chat-plan-mode.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type FakeModelServer, lastUserText, turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import { assistant, type ChatSession, idle, input, openChat, shot, startChatSession } from "./support/chat";

let chat: ChatSession;
let model: FakeModelServer;
let page: Page;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  chat = await startChatSession("e2e-plan-mode-", "Plan mode E2E", cleanups);
  ({ model, page } = chat);
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

const offered = (at: number) => (model.requests.at(at)?.body.tools ?? []).map((t) => t.function.name);
const WRITERS = ["write_file", "edit_file", "run_shell", "run_code", "create_boilerplate", "run_sql", "restart_app", "set_workflow_command"];

describe("plan mode", () => {
  test("Plan offers no write tool and refuses writes (called or written as text); Build this sends the plan to Build", async () => {
    await chat.withDiagnostics("plan-mode", [page], async () => {
      const projectId = await chat.newProject("Plan mode app");
      model.reset();
      model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "planned.txt", content: "not yet" } }]));
      model.enqueue(turn.text('<tool_call>{"name": "write_file", "arguments": {"path": "texted.txt", "content": "no"}}</tool_call>'));
      model.enqueue(turn.text("Here is the plan.\n\n- [ ] Add a todo list in src/App.tsx\n- [ ] Save the items in localStorage"));
      await openChat(page, projectId, chat.app.url);

      await page.getByTestId("mode-plan").click();
      expect(await page.getByTestId("mode-plan").getAttribute("aria-checked")).toBe("true");
      await input(page).fill("A todo app");
      await input(page).press("Enter");
      await idle(page);

      // Every request of the plan run offered read tools only, and none that writes.
      expect(model.requests.length).toBe(3);
      for (let i = 0; i < 3; i++) {
        expect(offered(i)).toContain("read_file");
        for (const writer of WRITERS) expect(offered(i)).not.toContain(writer);
      }
      expect(lastUserText(model, 0)).toContain("Plan mode");
      // Both writes were refused: two badges that say so, and no file was made.
      const refused = page.locator('[data-testid="tool-badge"][data-tool="write_file"][data-outcome="error"]');
      await refused.nth(1).waitFor();
      await refused.nth(1).getByRole("button").click();
      await refused.nth(1).getByText("Refused", { exact: false }).waitFor();
      const files = await chat.api<Array<{ path: string }>>("GET", `/api/files/${projectId}`);
      expect(files.map((f) => f.path)).not.toContain("planned.txt");
      expect(files.map((f) => f.path)).not.toContain("texted.txt");
      const plan = assistant(page).last();
      await plan.getByText("Save the items in localStorage").waitFor();
      expect(await plan.textContent()).not.toContain("tool_call");
      await shot(page, "plan-mode");

      // "Build this": the plan goes to Build mode, whose request offers the writing tools again.
      model.enqueue(turn.text("Built it."));
      await plan.getByTestId("build-plan").click();
      await assistant(page).last().getByText("Built it.").waitFor();
      await idle(page);
      expect(await page.getByTestId("mode-build").getAttribute("aria-checked")).toBe("true");
      expect(offered(-1)).toContain("write_file");
      const sent = lastUserText(model);
      expect(sent).toContain("Build this plan:");
      expect(sent).toContain("- [ ] Save the items in localStorage");
      expect(sent).not.toContain("Plan mode");
    });
  }, 120_000);
});
