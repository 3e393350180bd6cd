/**
 * Project knowledge (issue 27, item 9), end to end: real Chromium, the real app with the scripted model, the
 * real Auth emulator. Knowledge typed in the project's settings is saved as AGENTS.md (Files shows it) and
 * reaches the model's system prompt on the next run. Screenshot: e2e/artifacts/chat-knowledge.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import { assistant, type ChatSession, idle, input, openChat, shot, startChatSession } from "./support/chat";

let chat: ChatSession;
let model: FakeModelServer;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  chat = await startChatSession("e2e-knowledge-", "Knowledge E2E", cleanups);
  ({ model } = chat);
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("project knowledge", () => {
  test("Knowledge edited in settings is AGENTS.md and reaches the model's system prompt", async () => {
    const page = chat.page;
    await chat.withDiagnostics("knowledge", [page], async () => {
      await openChat(page, chat.projectId, chat.app.url);
      await page.getByTestId("settings-button").click();
      const panel = page.getByTestId("knowledge-panel");
      await panel.getByTestId("knowledge-input").fill("# House rules\nAlways answer in haiku. Use pnpm, never npm.");
      await panel.getByTestId("knowledge-save").click();
      await page.getByTestId("toast").filter({ hasText: "Knowledge saved" }).waitFor();
      await shot(page, "knowledge");
      const files = await chat.api<Array<{ path: string }>>("GET", `/api/files/${chat.projectId}`);
      expect(files.map((f) => f.path)).toContain("AGENTS.md");
      await page.keyboard.press("Escape");

      model.reset();
      model.enqueue(turn.text("Noted."));
      await input(page).fill("Hello");
      await input(page).press("Enter");
      await assistant(page).last().getByText("Noted.").waitFor();
      await idle(page);
      const system = model.requests[0]!.body.messages.find((m) => m.role === "system");
      expect(String(system?.content)).toContain("Always answer in haiku. Use pnpm, never npm.");
    });
  }, 90_000);
});
