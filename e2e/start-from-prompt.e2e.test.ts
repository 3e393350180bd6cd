/**
 * Start from a prompt (issue 27, item 1), end to end: real Chromium, the real app with the scripted model,
 * the real Auth emulator. A visitor, signed out, types a prompt on the landing page (a chip, then an image),
 * signs in, and lands in a project named from the prompt whose run got the prompt and the image.
 * Screenshots: e2e/artifacts/chat-start-landing.png, chat-start-login.png, chat-start-running.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import { assistant, type ChatSession, shot, startChatSession } from "./support/chat";

// A 1×1 PNG: the upload route sniffs the bytes, so the image must be real.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

let chat: ChatSession;
let model: FakeModelServer;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  chat = await startChatSession("e2e-start-", "Start E2E", cleanups);
  ({ model } = chat);
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

/** The emulator's popup, as support/chat.ts's signIn does it, from a login page already open. */
async function signInHere(p: Page) {
  const popup = p.waitForEvent("popup", { timeout: 45_000 });
  await p.getByRole("button", { name: "Continue with Google" }).click();
  const opened = await popup;
  await opened.getByText("Add new account").click();
  await opened.getByText("Auto-generate user information").click();
  await opened.locator("#sign-in").click();
}

describe("start from a prompt", () => {
  test("a prompt typed on the landing page, signed out, becomes a running project after sign-in; the image comes along", async () => {
    const page = await chat.stack.newPage({ width: 1280, height: 900 });
    await chat.withDiagnostics("start", [page], async () => {
      model.reset();
      model.enqueue(turn.steps({ delayMs: 1500 }, { text: "Starting on your todo app." }));
      await page.goto(`${chat.app.url}/`);
      const box = page.getByTestId("start-prompt");
      await box.getByTestId("start-chip").filter({ hasText: "React todo app" }).click();
      expect(await box.getByTestId("start-input").inputValue()).toBe("Build a React todo app with local storage");
      await box.getByTestId("image-input").setInputFiles({ name: "sketch.png", mimeType: "image/png", buffer: PNG });
      await box.getByTestId("attachment").waitFor();
      await shot(page, "start-landing");

      await box.getByTestId("start-button").click();
      await page.waitForURL("**/login?then=start");
      await page.getByText("Sign in and your app starts building from your prompt").waitFor();
      await shot(page, "start-login");
      await page.waitForLoadState("networkidle").catch(() => {});
      await signInHere(page);

      await page.waitForURL(/\/project\/[^/]+\/chat$/, { timeout: 45_000 });
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByText("React todo app").waitFor();
      await assistant(page).last().getByText("Starting on your todo app.").waitFor({ timeout: 30_000 });
      await shot(page, "start-running");

      const sent = chat.lastUserMessage().content as Array<{ type: string; text?: string }> | string;
      const parts = typeof sent === "string" ? [{ type: "text", text: sent }] : sent;
      expect(parts.some((p) => p.type === "text" && p.text?.includes("Build a React todo app with local storage"))).toBe(true);
      expect(parts.filter((p) => p.type === "image_url")).toHaveLength(1);
      // Taken once: the project list, opened again, starts nothing more.
      await page.goto(`${chat.app.url}/projects`);
      await page.getByTestId("project-card").first().waitFor();
      expect(await page.getByTestId("project-card").count()).toBe(1);
    });
    await page.context().close();
  }, 180_000);
});
