/**
 * A quieter chat (issue 27, item 4), end to end: real Chromium, the real app with the scripted model, the
 * real Auth emulator. A message sent during a run is queued (shown, cancellable) and delivered after it;
 * the model's wording makes no steps; token counts sit behind a details hover; an over-long draft is told
 * the limit. (Commands shown once: chat.e2e.test.ts's tool run.) Screenshot: e2e/artifacts/chat-queued.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type FakeModelServer, lastUserText, turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import { assistant, type ChatSession, idle, input, openChat, shot, startChatSession, user } from "./support/chat";

let chat: ChatSession;
let model: FakeModelServer;
let page: Page;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  chat = await startChatSession("e2e-quiet-chat-", "Quiet chat E2E", cleanups);
  ({ model, page } = chat);
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("a quieter chat", () => {
  test("a message sent during a run is queued, shown, cancellable, and delivered after the run", async () => {
    await chat.withDiagnostics("queued", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ text: "Creating the layout first.\n" }, { delayMs: 3000 }, { text: "First answer." }));
      model.enqueue(turn.text("Second answer."));
      await openChat(page, chat.projectId, chat.app.url);
      await input(page).fill("first");
      await input(page).press("Enter");
      await page.getByTestId("stop-button").waitFor();

      await input(page).fill("second");
      await input(page).press("Enter");
      await input(page).fill("third");
      await page.getByTestId("queue-button").click();
      const queued = page.getByTestId("queued-message");
      await queued.filter({ hasText: "third" }).waitFor();
      expect(await queued.count()).toBe(2);
      expect(await queued.first().textContent()).toContain("Queued");
      await shot(page, "queued");
      await queued.filter({ hasText: "third" }).getByTestId("cancel-queued").click();
      expect(await queued.count()).toBe(1);

      await assistant(page).last().getByText("Second answer.").waitFor({ timeout: 30_000 });
      await idle(page);
      expect(await queued.count()).toBe(0);
      expect(model.requests).toHaveLength(2);
      expect(lastUserText(model)).toBe("second");
      expect(await user(page).filter({ hasText: "third" }).count()).toBe(0);

      // The model's "Creating …" sentence is text, never a step that waits forever.
      const first = assistant(page).filter({ hasText: "First answer." });
      await first.getByText("Creating the layout first.").waitFor();
      expect(await first.getByTestId("step").count()).toBe(0);

      // Token counts: behind the details button, shown on hover.
      const usage = first.getByTestId("token-usage");
      expect(await usage.isVisible()).toBe(false);
      await first.getByTestId("usage-details").hover();
      await usage.filter({ hasText: "tokens" }).waitFor();
    });
  }, 120_000);

  test("tool badges open to a diff for an edit and a link that opens the written file", async () => {
    await chat.withDiagnostics("badges", [page], async () => {
      model.reset();
      model.enqueue(
        turn.toolCalls([{ name: "write_file", arguments: { path: "notes.md", content: "# Notes\nfirst line\n" } }]),
        turn.toolCalls([{ name: "edit_file", arguments: { path: "notes.md", search: "first line", replace: "second line" } }]),
        turn.text("Wrote the notes."),
      );
      await openChat(page, chat.projectId, chat.app.url);
      await input(page).fill("Write notes");
      await input(page).press("Enter");
      await assistant(page).last().getByText("Wrote the notes.").waitFor({ timeout: 30_000 });
      await idle(page);
      const answer = assistant(page).last();
      const edit = answer.locator('[data-testid="tool-badge"][data-tool="edit_file"]');
      await edit.getByRole("button").click();
      await edit.locator('[data-line="removed"]', { hasText: "- first line" }).waitFor();
      await edit.locator('[data-line="added"]', { hasText: "+ second line" }).waitFor();
      await shot(page, "badge-diff");
      const write = answer.locator('[data-testid="tool-badge"][data-tool="write_file"]');
      await write.getByRole("button").click();
      await write.getByTestId("open-file").click();
      await page.waitForURL(/\/files\?open=notes\.md$/);
      await page.getByText("second line").first().waitFor({ timeout: 20_000 });
    });
  }, 90_000);

  test("an over-long message names the limit and is not sent", async () => {
    await chat.withDiagnostics("too-long", [page], async () => {
      model.reset();
      await openChat(page, chat.projectId, chat.app.url);
      await input(page).fill("x".repeat(100_001));
      const note = page.getByTestId("too-long");
      await note.waitFor();
      expect(await note.textContent()).toContain("100,001 characters");
      expect(await note.textContent()).toContain("the limit is 100,000");
      expect(await page.getByTestId("send-button").isDisabled()).toBe(true);
      await input(page).press("Enter");
      await Bun.sleep(300);
      expect(model.requests).toHaveLength(0);
      // The API says the same to a client that sends one anyway.
      const res = await fetch(`${chat.app.url}/api/messages/stream`, {
        method: "POST",
        headers: { Authorization: `Bearer ${chat.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ projectId: chat.projectId, content: "y".repeat(100_001) }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain("the limit is 100,000");
      await input(page).fill("");
    });
  }, 60_000);
});
