/**
 * Select to edit (issue 27, item 10), end to end: real Chromium, the real app (web/dist) with the scripted model,
 * a real local sandbox running the react template's Vite (whose dev-only plugin tags elements with their
 * source). In the preview beside the chat, Select then a click on the heading puts a chip in the composer
 * ("App", `src/App.tsx:<line>`), and the message sent with it carries `src/App.tsx:` and the heading's text into
 * the model's request. On the Preview screen a picked element waits in the chat's composer; a page without
 * source tags gives its CSS selector instead. Screenshots: e2e/artifacts/select-edit-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Locator, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { type FakeModelServer, lastUserText, turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";
import { type ModelApp, reactProject, startModelApp } from "./support/model-app";
import { ARTIFACTS } from "./support/stack";
import { until } from "./support/until";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;

const HEADING = "Hello from React";
// The line the template's App.tsx writes the heading on: what the source tag must say.
const HEADING_LINE =
  readFileSync(join(import.meta.dir, "../api/templates/react/files/src/App.tsx"), "utf8")
    .split("\n")
    .findIndex((l) => l.includes("<h1")) + 1;

let m: ModelApp;
let model: FakeModelServer;
let app: AppServer;
let page: Page;
let projectId: string;
let sandboxId: string;
const cleanups: Array<() => unknown> = [];

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `select-edit-${name}.png`) });
const chips = () => page.getByTestId("element-chip");

/** The preview frame of the project's sandbox once it shows `text`. */
async function previewFrame(text: string): Promise<Frame> {
  return until(
    `the preview shows "${text}"`,
    async (): Promise<Frame | null> => {
      for (const f of page.frames()) {
        if (!f.url().startsWith(`http://5173-${sandboxId}.localhost:`)) continue;
        if (
          (await f
            .getByText(text)
            .count()
            .catch(() => 0)) > 0
        )
          return f;
      }
      return null;
    },
    (f) => f !== null,
    120_000,
  ) as Promise<Frame>;
}

/** Select on the Preview screen, once the page's picker has started, then a click on `target`. */
async function pick(frame: Frame, target: Locator, place: string) {
  await page.getByRole("button", { name: "Select an element to edit" }).click();
  await frame.locator("[data-app-builder-picker]").first().waitFor({ state: "attached" });
  await target.click();
  // Picking ended in the page, and this pick's toast names the place.
  await until(
    "the picker stopped",
    () => frame.locator("[data-app-builder-picker]").count(),
    (n) => n === 0,
    10_000,
  );
  await page.getByTestId("toast").filter({ hasText: "Element attached to the chat" }).filter({ hasText: place }).waitFor();
}

function step(name: string, run: () => Promise<void>, timeoutMs = 240_000) {
  if (SKIP) return test.skip(`${name} (${SKIP})`, () => {});
  test(
    name,
    async () => {
      try {
        await run();
      } catch (err) {
        await shot(`failure-${name.replace(/\W+/g, "-").slice(0, 40)}`).catch(() => {});
        console.error(`--- app output ---\n${app.output().slice(-4000)}`);
        throw err;
      }
    },
    timeoutMs,
  );
}

beforeAll(async () => {
  if (SKIP) return;
  m = await startModelApp({ name: "select-edit", cleanups, react: true, env: { OPENAI_MODEL: "fake-model" } });
  ({ model, app, page } = m);
  ({ projectId, sandboxId } = await reactProject(m, "Select E2E"));
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("select to edit", () => {
  step("Select on the preview's heading puts src/App.tsx: and the heading's text into the model's request", async () => {
    await page.goto(`${app.url}/project/${projectId}/chat`);
    const frame = await previewFrame(HEADING);
    const select = page.getByTestId("chat-preview-select");
    await select.click();
    expect(await select.getAttribute("aria-pressed")).toBe("true");

    // Hovering outlines the element and names it.
    const heading = frame.getByRole("heading", { name: HEADING });
    await heading.hover();
    const label = frame.locator("[data-app-builder-picker]").nth(1);
    await until(
      "the hover label",
      () => label.textContent(),
      (t) => Boolean(t?.includes(`src/App.tsx:${HEADING_LINE}`)),
      10_000,
    );
    expect(await label.textContent()).toContain("App");
    await shot("hover");
    await heading.click();

    // The chip: component and file:line; picking has ended.
    await chips().first().waitFor();
    expect(await chips().count()).toBe(1);
    expect(await chips().first().textContent()).toContain("App");
    expect(await chips().first().textContent()).toContain(`src/App.tsx:${HEADING_LINE}`);
    expect(await select.getAttribute("aria-pressed")).toBe("false");
    expect(await frame.locator("[data-app-builder-picker]").count()).toBe(0);
    // The click went to the picker, not the app: the page is as it was.
    expect(await frame.getByText("Clicked 0 times").count()).toBe(1);
    await page.getByTestId("chat-input").fill("Make this heading red");
    await page.getByTestId("chat-composer").screenshot({ path: join(ARTIFACTS, "select-edit-chip.png") });
    await shot("chat");

    model.reset();
    model.enqueue(turn.text("I will make it red."));
    await page.getByTestId("chat-input").press("Enter");
    await page.getByText("I will make it red.").waitFor({ timeout: 30_000 });
    await page.getByTestId("send-button").waitFor({ timeout: 60_000 });
    const sent = lastUserText(model, 0);
    expect(sent).toContain("Make this heading red");
    expect(sent).toContain("src/App.tsx:");
    expect(sent).toContain(`in App at src/App.tsx:${HEADING_LINE}`);
    expect(sent).toContain(`text "${HEADING}"`);
    expect(sent).toContain(`<h1 class="text-3xl font-bold tracking-tight">${HEADING}</h1>`);
    // The chip went with the message.
    expect(await chips().count()).toBe(0);
  });

  step("on the Preview screen a picked element waits in the chat; a page without source tags gives its CSS selector", async () => {
    await page.goto(`${app.url}/project/${projectId}/preview`);
    let frame = await previewFrame(HEADING);
    await pick(frame, frame.getByText("Edit src/App.tsx and save"), `src/App.tsx:${HEADING_LINE + 1}`);

    // A page the dev server serves as written (Vite serves a root .html file as a page of its own): no source tags.
    await m.api("POST", `/api/files/${projectId}`, {
      path: "plain.html",
      content: '<!doctype html><html><body><main><p>One</p><p class="note big">Plain page</p></main></body></html>',
    });
    const plainUrl = `${new URL(frame.url()).origin}/plain.html`;
    frame = (await until(
      "the plain page in the frame",
      async () => {
        await frame.goto(plainUrl).catch(() => null);
        return (await frame.getByText("Plain page").count()) > 0 ? frame : null;
      },
      (f) => f !== null,
      60_000,
    )) as Frame;
    await pick(frame, frame.getByText("Plain page"), "main > p.note.big:nth-of-type(2)");

    // In the app, as a person goes there (the chips live in this page, not on the server).
    await page.getByRole("link", { name: "Agent Chat" }).click();
    await chips().nth(1).waitFor();
    expect(await chips().nth(0).textContent()).toContain(`src/App.tsx:${HEADING_LINE + 1}`);
    expect(await chips().nth(1).textContent()).toContain("<p>");
    expect(await chips().nth(1).textContent()).toContain("main > p.note.big:nth-of-type(2)");
    await chips().nth(0).getByRole("button").click();
    expect(await chips().count()).toBe(1);

    model.reset();
    model.enqueue(turn.text("Noted."));
    await page.getByTestId("chat-input").fill("What is this?");
    await page.getByTestId("chat-input").press("Enter");
    await page.getByText("Noted.").waitFor({ timeout: 30_000 });
    const sent = lastUserText(model, 0);
    expect(sent).toContain('<p> at CSS selector "body > main > p.note.big:nth-of-type(2)"');
    expect(sent).toContain('html `<p class="note big">Plain page</p>`');
    expect(sent).not.toContain("src/App.tsx");
  });
});
