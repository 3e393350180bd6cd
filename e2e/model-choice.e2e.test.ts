/**
 * Model choice and token use end to end: real Chromium, the real app serving web/dist with MODELS,
 * MODEL_PRICES and USER_MONTHLY_TOKENS set, and the scripted OpenAI-compatible server. The person picks a
 * model in the chat input and sends; the model server receives that model id; the answer shows its tokens
 * and cost; the context meter fills; and once the month's tokens are spent, sending shows the budget toast.
 * Screenshots go to e2e/artifacts/model-choice-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { unnamedControls } from "./support/a11y";
import { callApi, runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";

import { ARTIFACTS } from "./support/stack";
import { startModelApp } from "./support/model-app";

let model: FakeModelServer;
let app: AppServer;
let page: Page;
let token: string;
const cleanups: Array<() => unknown> = [];

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `model-choice-${name}.png`) });
const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
const assistant = (p: Page) => p.locator('[data-testid="message"][data-role="assistant"]');

beforeAll(async () => {
  ({ model, app, page, token } = await startModelApp({
    name: "models",
    cleanups,
    env: { MODELS: "fake-model,fake-model-large", MODEL_PRICES: "fake-model-large=3/15", MODEL_CONTEXT_TOKENS: "16384", USER_MONTHLY_TOKENS: "1000" },
  }));
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

async function withDiagnostics(name: string, body: () => Promise<void>) {
  try {
    await body();
  } catch (err) {
    console.error(`--- app output (${name}) ---\n${app.output().slice(-6000)}`);
    await shot(page, `failure-${name}`).catch(() => {});
    throw err;
  }
}

describe("model choice and cost", () => {
  test("pick a model, send: the model server gets that id, the answer shows tokens and cost, the context meter fills, the spent budget is a toast", async () => {
    await withDiagnostics("pick-send", async () => {
      const { id } = await api<{ id: string }>("POST", "/api/projects", { name: "Model choice" });
      await page.goto(`${app.url}/project/${id}/chat`);
      await page.getByTestId("chat-composer").waitFor();

      // The context meter: the system prompt and tools already take part of the 16,384-token window.
      const meter = page.getByTestId("context-meter");
      await meter.waitFor();
      expect(await meter.innerText()).toContain("/ 16.4k tokens");
      expect(Number(await meter.getAttribute("data-percent"))).toBeGreaterThan(0);
      const emptyUsed = Number(await meter.getAttribute("data-used"));
      expect(emptyUsed).toBeGreaterThan(500);
      expect(await page.getByTestId("token-budget").innerText()).toBe("This month: 0 / 1k tokens");

      // The picker shows the default; the other model is chosen from the list and stored for the project.
      const picker = page.getByTestId("model-picker");
      await picker.filter({ hasText: "fake-model" }).waitFor();
      await picker.click();
      const options = page.getByTestId("model-option");
      expect(await options.allInnerTexts()).toEqual(["fake-model", "fake-model-large"]);
      expect(await unnamedControls(page)).toEqual([]);
      await shot(page, "picker-open");
      await options.filter({ hasText: "fake-model-large" }).click();
      await picker.filter({ hasText: "fake-model-large" }).waitFor();
      for (let i = 0; ; i++) {
        const stored = await api<{ model: string }>("GET", `/api/projects/${id}/model`);
        if (stored.model === "fake-model-large") break;
        if (i > 50) throw new Error(`the choice was not stored: ${stored.model}`);
        await Bun.sleep(100);
      }

      model.enqueue(turn.steps({ text: "Built with the large model." }, { usage: { prompt_tokens: 1_000, completion_tokens: 200 } }));
      await page.getByTestId("chat-input").fill("Build a counter");
      await page.getByTestId("send-button").click();
      const answer = assistant(page).last();
      await answer.getByText("Built with the large model.").waitFor();
      await page.getByTestId("send-button").waitFor();
      expect(model.requests.at(-1)!.body.model).toBe("fake-model-large");

      // Tokens in/out and the cost (1,000 × $3 + 200 × $15 per 1M) under the answer.
      await answer.getByTestId("usage-details").hover();
      const usage = answer.getByTestId("token-usage");
      await usage.filter({ hasText: "1,200 tokens" }).waitFor();
      expect(await usage.innerText()).toContain("1,000 in · 200 out");
      expect(await answer.getByTestId("token-cost").innerText()).toBe("$0.0060");

      // The meter now counts the exchange too, and the month shows what was spent.
      await page.getByTestId("token-budget").filter({ hasText: "This month: 1.2k / 1k tokens" }).waitFor();
      for (let i = 0; Number(await meter.getAttribute("data-used")) <= emptyUsed; i++) {
        if (i > 50) throw new Error("the context meter did not grow");
        await Bun.sleep(100);
      }
      await shot(page, "answered");

      // The month's 1,000 tokens are spent: sending is refused with a readable toast, the draft kept.
      const requests = model.requests.length;
      await page.getByTestId("chat-input").fill("One more thing");
      await page.getByTestId("send-button").click();
      const toast = page.getByTestId("toast").filter({ hasText: "Monthly token budget used" });
      await toast.waitFor();
      expect(await toast.innerText()).toMatch(/You have used your 1,000 tokens for \w+\. The budget resets on 1 \w+\./);
      expect(await page.getByTestId("chat-input").inputValue()).toBe("One more thing");
      expect(model.requests.length).toBe(requests);
      await shot(page, "budget-spent");
    });
  }, 180_000);
});
