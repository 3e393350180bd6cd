/**
 * The Agent Chat end to end, one conversation: real Chromium, the real app
 * serving web/dist with OPENAI_BASE_URL pointing at the scripted OpenAI-compatible server
 * (api/src/test/fake-model-server.ts), real Auth emulator. Each test scripts the model's replies and checks
 * what the page shows, and for images what reached the model: the composer, a streamed answer, a tool run,
 * a refused or failed send, images. Runs that outlive the page's view of them: chat-runs.e2e.test.ts.
 * Screenshots go to e2e/artifacts/chat-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { unnamedControls } from "./support/a11y";
import type { AppServer } from "./support/app-server";
import { runCleanups } from "./support/api";
import { assistant, badge, type ChatSession, idle, input, openChat as openChatAt, shot, startChatSession, toast, user } from "./support/chat";

// A 1×1 PNG: the upload route sniffs the bytes, so the image must be real.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
// The 409 names who is running and what (issue 26): "<name> is running the agent on this project (\"…\")".
const BUSY = "is running the agent on this project";

let chat: ChatSession;
let model: FakeModelServer;
let app: AppServer;
let page: Page;
let token: string;
let projectId: string;
const cleanups: Array<() => unknown> = [];

const url = (path: string) => `${app.url}${path}`;
const openChat = (p: Page, id: string, base = app.url) => openChatAt(p, id, base);
const withDiagnostics = (name: string, pages: Page[], body: () => Promise<void>) => chat.withDiagnostics(name, pages, body);
const newProject = (name: string) => chat.newProject(name);
const lastUserMessage = () => chat.lastUserMessage();

beforeAll(async () => {
  chat = await startChatSession("e2e-chat-", "Chat E2E", cleanups);
  ({ model, app, page, token, projectId } = chat);
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("chat", () => {
  test("an empty chat says 'New chat with Agent', at 1440 and 375 px", async () => {
    await withDiagnostics("empty", [page], async () => {
      await openChat(page, projectId);
      await page.getByText("New chat with Agent").waitFor();
      expect(await page.getByTestId("reasoning-toggle").getAttribute("aria-checked")).toBe("false");
      expect(await page.getByTestId("send-button").isDisabled()).toBe(true);
      await page.getByTestId("image-add-tile").waitFor();
      expect(await unnamedControls(page)).toEqual([]);
      await shot(page, "empty-1440");
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByText("New chat with Agent").waitFor();
      // The composer stays above the mobile bottom bar.
      const composer = await page.getByTestId("chat-composer").boundingBox();
      const bar = await page.getByRole("navigation", { name: "Project views" }).boundingBox();
      if (composer && bar) expect(composer.y + composer.height).toBeLessThanOrEqual(bar.y + 1);
      await shot(page, "empty-375");
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  }, 60_000);

  test("Shift+Enter breaks the line, the input grows to 128 px, Enter sends; 'AI is thinking...' until text arrives", async () => {
    await withDiagnostics("enter", [page], async () => {
      model.reset();
      model.enqueue(
        turn.steps(
          { delayMs: 1200 },
          { text: 'Hello! Here is **bold** text, `inline code` and a block:\n\n```js\nconsole.log("<script>alert(1)</script>");\n```\n' },
          { usage: { prompt_tokens: 120, completion_tokens: 30 } },
        ),
      );
      await openChat(page, projectId);
      const box = input(page);
      await box.click();
      const oneLine = (await box.boundingBox())!.height;
      await page.keyboard.type("line one");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("line two");
      expect(await box.inputValue()).toBe("line one\nline two");
      expect((await box.boundingBox())!.height).toBeGreaterThan(oneLine);
      for (let i = 0; i < 8; i++) await page.keyboard.press("Shift+Enter");
      expect((await box.boundingBox())!.height).toBeLessThanOrEqual(128);
      expect((await box.boundingBox())!.height).toBeGreaterThan(120);
      for (let i = 0; i < 8; i++) await page.keyboard.press("Backspace");
      expect(await box.inputValue()).toBe("line one\nline two");
      expect(model.requests).toHaveLength(0);

      await page.keyboard.press("Enter");
      await page.getByTestId("ai-thinking").filter({ hasText: "AI is thinking..." }).waitFor();
      expect(await box.inputValue()).toBe("");
      expect(await page.getByTestId("reasoning-toggle").isDisabled()).toBe(true);
      await user(page).filter({ hasText: "line one" }).waitFor();
      await shot(page, "thinking");

      const answer = assistant(page).last();
      await answer.locator("strong", { hasText: "bold" }).waitFor();
      expect(await page.getByTestId("ai-thinking").count()).toBe(0);
      await idle(page);
      await answer.getByTestId("code-block").waitFor();
      expect(await answer.getByTestId("code-block").textContent()).toContain('console.log("<script>alert(1)</script>");');
      expect(await page.locator("main script").count()).toBe(0);
      // Token counts sit behind the answer's details button (issue 27), shown on hover.
      expect(await answer.getByTestId("token-usage").isVisible()).toBe(false);
      await answer.getByTestId("usage-details").hover();
      await answer.getByTestId("token-usage").filter({ hasText: "150 tokens" }).waitFor();
      expect(await page.getByTestId("reasoning-toggle").isDisabled()).toBe(false);
      expect(lastUserMessage().content).toBe("line one\nline two");
      expect(model.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "line one\nline two" });
      // Shown as the user wrote it, line break included.
      expect(await user(page).last().innerText()).toContain("line one\nline two");

      // Copy confirms for 2 s.
      const copy = answer.getByRole("button", { name: "Copy message" });
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
      await copy.click();
      await answer.getByRole("button", { name: "Copied" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("Hello! Here is **bold** text");
      await answer.getByRole("button", { name: "Copy message" }).waitFor({ timeout: 3_000 });
    });
  }, 60_000);

  test("a tool run: step lines and badges go from in progress to completed, Extended Thinking shows, the file appears in Files", async () => {
    await withDiagnostics("tools", [page], async () => {
      model.reset();
      model.enqueue(
        turn.steps(
          { reasoning: "The user wants a greeting. I will write App.tsx and check the sandbox." },
          { text: "I'll build it.\nCreating a greeting app\n" },
          { toolCalls: [{ name: "write_file", arguments: { path: "src/App.tsx", content: 'export const App = () => "Hello";\n' } }] },
        ),
        turn.toolCalls([{ name: "run_shell", arguments: { command: "sleep 2 && echo slept" } }]),
        turn.text("All done. Start it with `npm run dev`."),
      );
      await openChat(page, projectId);
      // Record every status each badge shows, however briefly.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { badgeLog: string[] }).badgeLog = seen;
        const record = () => {
          for (const el of document.querySelectorAll('[data-testid="tool-badge"]')) {
            const entry = `${el.getAttribute("data-tool")}:${el.getAttribute("data-status")}`;
            if (!seen.includes(entry)) seen.push(entry);
          }
        };
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
      });

      await page.getByTestId("reasoning-toggle").click();
      expect(await page.getByTestId("reasoning-toggle").getAttribute("aria-checked")).toBe("true");
      await input(page).fill("Build a greeting app");
      await input(page).press("Enter");

      const answer = assistant(page).last();
      await answer.getByTestId("thinking").filter({ hasText: "Extended Thinking" }).waitFor();
      // The model's own sentence "Creating a greeting app" is text, not a step (issue 27: steps come from actions).
      await answer.getByText("Creating a greeting app").waitFor();
      await answer.locator('[data-testid="step"][data-status="completed"]', { hasText: "Created src/App.tsx" }).waitFor();
      await badge(page, "write_file", "completed").waitFor();
      expect(await badge(page, "write_file").getAttribute("data-status")).toBe("completed");
      await badge(page, "run_shell", "in_progress").waitFor();
      expect(await badge(page, "run_shell", "in_progress").locator('[role="status"]').count()).toBe(1); // the spinner
      await shot(page, "tool-running");
      await badge(page, "run_shell", "completed").waitFor({ timeout: 30_000 });
      await answer.getByText("All done. Start it with").waitFor();
      await idle(page);
      // The command shows once, as its badge; the step line that repeated it gives way.
      expect(await answer.getByText("Ran shell: sleep 2 && echo slept").count()).toBe(0);
      expect(await answer.locator('[data-testid="step"]', { hasText: "Creating a greeting app" }).count()).toBe(0);

      const log = await page.evaluate(() => (window as unknown as { badgeLog: string[] }).badgeLog);
      expect(log).toContain("write_file:completed");
      expect(log.indexOf("run_shell:in_progress")).toBeGreaterThanOrEqual(0);
      expect(log.indexOf("run_shell:completed")).toBeGreaterThan(log.indexOf("run_shell:in_progress"));
      expect(await answer.getByTestId("thinking").textContent()).toContain("Extended Thinking");
      await answer.getByRole("button", { name: "Extended Thinking" }).click();
      await answer.getByText("The user wants a greeting.").waitFor();

      // The badges open to what a person wants: the written file as a link, the command with its output.
      await badge(page, "write_file").getByRole("button").click();
      await badge(page, "write_file").getByTestId("open-file").filter({ hasText: "src/App.tsx" }).waitFor();
      await badge(page, "run_shell").getByRole("button").click();
      const command = badge(page, "run_shell").getByTestId("tool-command");
      await command.getByText("$ sleep 2 && echo slept").waitFor();
      expect(await command.textContent()).toContain("slept");
      expect(await unnamedControls(page)).toEqual([]);
      await shot(page, "tool-done-1440");
      await page.setViewportSize({ width: 375, height: 812 });
      await shot(page, "tool-done-375");
      await page.setViewportSize({ width: 1440, height: 900 });

      // After a reload the saved message shows the same badges, completed.
      await page.reload();
      await badge(page, "write_file", "completed").waitFor();
      await badge(page, "run_shell", "completed").waitFor();

      await page.goto(url(`/project/${projectId}/files`));
      await page.locator('[data-testid="file-row"][data-path="src/App.tsx"]').waitFor();
    });
  }, 90_000);

  test("a send while a run is going is refused with the server's message (409), and the draft is kept", async () => {
    await withDiagnostics("409", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ delayMs: 2500 }, { text: "Answer to the other tab." }));
      await openChat(page, projectId);
      await idle(page);
      // Another tab (here: the API directly) starts a run.
      const other = fetch(url("/api/messages/stream"), {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ projectId, content: "from another tab", enableReasoning: false }),
      }).then((r) => r.text());
      const deadline = Date.now() + 10_000;
      while (model.requests.length === 0 && Date.now() < deadline) await Bun.sleep(50);

      await input(page).fill("second message");
      await input(page).press("Enter");
      const refused = toast(page, "Failed to send message");
      await refused.waitFor();
      expect(await refused.textContent()).toContain(BUSY);
      expect(await refused.getAttribute("data-variant")).toBe("destructive");
      await shot(page, "409");
      expect(await input(page).inputValue()).toBe("second message");
      expect(await other).toContain('"type":"done"');
      await input(page).fill("");
    });
  }, 60_000);

  test("a stream error event shows an 'Error' toast with the server's message", async () => {
    await withDiagnostics("error", [page], async () => {
      model.reset();
      model.enqueue(turn.http(400, { error: { message: "Scripted refusal for the chat test", type: "invalid_request_error" } }));
      await openChat(page, projectId);
      await input(page).fill("This one fails");
      await input(page).press("Enter");
      const error = page.getByTestId("toast").filter({ has: page.getByText("Error", { exact: true }) });
      await error.waitFor();
      expect(await error.textContent()).toContain("Scripted refusal for the chat test");
      expect(await error.getAttribute("data-variant")).toBe("destructive");
      await idle(page);
      await assistant(page).last().getByTestId("message-status").filter({ hasText: "Failed" }).waitFor();
      await shot(page, "error");
    });
  }, 60_000);

  test("images: the add tile (hidden at 5), 'Uploading images...' holds the send, and the images reach the model as image parts", async () => {
    await withDiagnostics("images", [page], async () => {
      model.reset();
      model.enqueue(turn.text("I can see your images."));
      const imagesProject = await newProject("Chat images");
      await openChat(page, imagesProject);
      // Slow uploads, so the uploading state can be seen.
      await page.route("**/api/upload/image", async (route) => {
        await Bun.sleep(1200);
        await route.continue();
      });
      const files = ["a", "b", "c", "d", "e", "f"].map((n) => ({ name: `${n}.png`, mimeType: "image/png", buffer: PNG }));
      await page.getByTestId("image-input").setInputFiles(files);
      await page.getByTestId("uploading-hint").filter({ hasText: "Uploading images..." }).waitFor();
      expect(await page.getByTestId("attachment").count()).toBe(5);
      expect(await page.getByTestId("image-add-tile").count()).toBe(0);
      expect(await page.getByTestId("send-button").isDisabled()).toBe(true);
      await input(page).press("Enter");
      await shot(page, "uploading");
      await page.getByTestId("uploading-hint").waitFor({ state: "detached" });
      expect(model.requests).toHaveLength(0);
      expect(await page.locator('[data-testid="attachment"][data-status="uploaded"]').count()).toBe(5);

      // Removing one brings the tile back.
      await page.getByRole("button", { name: "Remove image" }).first().click();
      await page.getByTestId("image-add-tile").waitFor();
      await page.unroute("**/api/upload/image");
      await page.getByTestId("send-button").click();

      await user(page).last().getByText("(Image uploaded)").waitFor();
      expect(await user(page).last().getByTestId("message-image").count()).toBe(4);
      await assistant(page).last().getByText("I can see your images.").waitFor();
      await idle(page);

      const sent = lastUserMessage().content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
      expect(Array.isArray(sent)).toBe(true);
      const images = sent.filter((part) => part.type === "image_url");
      expect(images).toHaveLength(4);
      for (const part of images) expect(part.image_url?.url.startsWith("data:image/png;base64,")).toBe(true);
      expect(sent.some((part) => part.type === "text" && part.text?.includes("(Image uploaded)"))).toBe(true);
      // The images load in the page (signed URLs, no bearer needed).
      expect(
        await user(page)
          .last()
          .getByTestId("message-image")
          .first()
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      ).toBe(1);
      await shot(page, "images-1440");
      await page.setViewportSize({ width: 375, height: 812 });
      await shot(page, "images-375");
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  }, 60_000);
});
