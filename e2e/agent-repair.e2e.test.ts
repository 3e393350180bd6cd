/**
 * The agent checks its own work, end to end: real Chromium, the real app (web/dist) with a real local sandbox
 * running the react template's Vite, and the scripted model server behind the chat. A run that writes an
 * App.tsx importing a file that does not exist does not end as done: the import error reaches the model as
 * a repair step, the model's fix is applied, the chat says "App runs without errors" and the preview renders
 * the fixed app. A model that never fixes it stops after AGENT_REPAIR_ROUNDS (3 here) with
 * a message naming the remaining problem; the same failing tool call three times stops the run as stuck. An
 * App that compiles but throws at render is seen by the preview open beside the chat (1440 px): the check
 * waits for that page to run the change, and the thrown error reaches the model. A crash that survives the
 * first repair rounds (the page runs each fix as a hot update and throws again) is reported again in rounds 2
 * and 3, not dropped as already seen, and the fix of round 3 ends the run with the preview showing it.
 * Screenshots go to e2e/artifacts/agent-repair-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Frame, Page, Request } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { type ChatRequestBody, type FakeModelServer, type FakeTurn, turn } from "../api/src/test/fake-model-server";
import { callApi, runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";

import { ARTIFACTS } from "./support/stack";
import { reactProject, startModelApp } from "./support/model-app";
import { until } from "./support/until";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;

const REPAIR_ROUNDS = 3;
const FIXED_TEXT = "Repaired by the agent";
// Line 2 imports a file that does not exist.
const importing = (name: string) =>
  `import { useState } from "react";\nimport ${name} from "./${name}";\nexport default function App() {\n  const [n] = useState(0);\n  return <main><${name} n={n} /></main>;\n}\n`;
// Compiles and type-checks; only a page that runs it sees it fail.
const THROWING_APP =
  'export default function App() {\n  if (Date.now() > 0) throw new Error("Render failed: no items loaded");\n  return <main>never</main>;\n}\n';
const MISSING_FILE = `export default function Missing({ n }: { n: number }) {\n  return <h1>${FIXED_TEXT} {n}</h1>;\n}\n`;

let model: FakeModelServer;
let app: AppServer;
let page: Page;
let token: string;
let projectId: string;
let sandboxId: string;
const cleanups: Array<() => unknown> = [];

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `agent-repair-${name}.png`) });
const lastAssistant = (p: Page) => p.locator('[data-testid="message"][data-role="assistant"]').last();
const stepLine = (p: Page, text: string | RegExp) => lastAssistant(p).locator('[data-testid="step"]', { hasText: text });

/** The newest message of a request, as text (the model reads a repair step as a user message). */
function last(req: ChatRequestBody): { role: string; text: string } {
  const m = req.messages.at(-1)!;
  return { role: m.role, text: typeof m.content === "string" ? m.content : JSON.stringify(m.content) };
}
const isRepairStep = (m: { role: string; text: string }) => m.role === "user" && m.text.includes("I checked the app after your changes");

/**
 * Records every step line the chat renders while the page stays open: "Checking the app…" is a live line
 * that the check's result replaces, so it is gone by the time the run has ended.
 */
async function recordStepLines() {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenSteps: string[] }).seenSteps = seen;
    const take = () => {
      for (const el of document.querySelectorAll('[data-testid="step"]')) {
        const line = (el.textContent ?? "").trim();
        if (!seen.includes(line)) seen.push(line);
      }
    };
    new MutationObserver(take).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}
const seenStepLines = () => page.evaluate(() => (window as unknown as { seenSteps: string[] }).seenSteps);

/** What the open preview's reporter pings from now on: when it was sent and how old the code the page runs is. */
function watchPings() {
  const pings: { at: number; loadAgeMs: number }[] = [];
  const onRequest = (req: Request) => {
    if (!req.url().endsWith("/__appbuilder/problems")) return;
    const reports = (JSON.parse(req.postData() ?? "{}") as { reports?: { kind: string; loadAgeMs?: number }[] }).reports ?? [];
    for (const r of reports) if (r.kind === "loaded") pings.push({ at: Date.now(), loadAgeMs: r.loadAgeMs ?? 0 });
  };
  page.on("request", onRequest);
  return {
    pings,
    stop: () => page.off("request", onRequest),
    /**
     * As a person would: the preview beside the chat has loaded (it pinged) and its hot-reload socket is up
     * before the message goes. A page still loading when the file changes keeps the code it fetched, and Vite
     * does not tell a socket that connects later about the change it missed.
     */
    ready: async () => {
      await until(
        "the open preview pinged",
        async () => pings.length,
        (n) => n > 0,
        45_000,
      );
      await Bun.sleep(1_500);
    },
  };
}

/** Sends a message in the chat and waits until the run has ended (Send is back). */
async function sendAndWait(text: string, timeoutMs = 150_000, ready?: () => Promise<void>) {
  await page.goto(`${app.url}/project/${projectId}/chat`);
  await recordStepLines();
  await ready?.();
  await page.getByTestId("chat-input").fill(text);
  await page.getByTestId("chat-input").press("Enter");
  await page.getByTestId("stop-button").waitFor({ timeout: 20_000 });
  await page.getByTestId("send-button").waitFor({ timeout: timeoutMs });
}

function step(name: string, run: () => Promise<void>, timeoutMs = 180_000) {
  if (SKIP) return test.skip(`${name} (${SKIP})`, () => {});
  test(
    name,
    async () => {
      const started = Date.now();
      try {
        await run();
      } catch (err) {
        await shot(page, `failure-${name.replace(/\W+/g, "-").slice(0, 40)}`).catch(() => {});
        console.error(`--- app output ---\n${app.output().slice(-4000)}`);
        console.error(
          `--- model requests: ${model.requests.length}; last messages ---\n${model.requests.map((r) => JSON.stringify(last(r.body)).slice(0, 300)).join("\n")}`,
        );
        throw err;
      } finally {
        console.log(`[agent-repair e2e] "${name}" took ${Date.now() - started} ms`);
      }
    },
    timeoutMs,
  );
}

beforeAll(async () => {
  if (SKIP) return;
  const m = await startModelApp({
    name: "repair",
    cleanups,
    react: true,
    env: { OPENAI_MODEL: "fake-model", AGENT_REPAIR_ROUNDS: String(REPAIR_ROUNDS) },
  });
  ({ model, app, page, token } = m);
  ({ projectId, sandboxId } = await reactProject(m, "Repair E2E"));
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("the agent verifies and repairs its work", () => {
  step("a missing import reaches the model, its fix is applied and the preview renders the fixed app", async () => {
    model.reset();
    model.respondWith((req): FakeTurn => {
      const m = last(req);
      if (isRepairStep(m))
        return turn.toolCalls([{ name: "write_file", arguments: { path: "src/Missing.tsx", content: MISSING_FILE } }], "I will add the missing file.");
      if (m.role === "tool") return turn.text("Done.");
      return turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: importing("Missing") } }]);
    });
    await sendAndWait("Show a counter component");

    // The import error went back to the model as a repair step.
    const repairs = model.requests.map((r) => last(r.body)).filter(isRepairStep);
    expect(repairs.length).toBe(1);
    expect(repairs[0]!.text).toContain("repair round 1 of 3");
    expect(repairs[0]!.text).toContain('[build] src/App.tsx:2 — Failed to resolve import "./Missing" from "src/App.tsx"');
    // ...and the model's fix was written.
    const files = await api<{ id: string; path: string }[]>("GET", `/api/files/${projectId}`);
    const missing = files.find((f) => f.path === "src/Missing.tsx");
    expect(missing).toBeDefined();
    expect((await api<{ content: string }>("GET", `/api/files/${projectId}/${missing!.id}`)).content).toContain(FIXED_TEXT);

    expect(await seenStepLines()).toContain("Checking the app…");
    await stepLine(page, /Found \d+ problems?, fixing \(1\/3\)/).waitFor();
    await stepLine(page, "App runs without errors").waitFor();
    expect(await lastAssistant(page).getAttribute("data-status")).not.toBe("failed");
    await shot(page, "fixed-chat");

    await page.goto(`${app.url}/project/${projectId}/preview`);
    const frame = await until(
      "fixed app rendered in the preview",
      async (): Promise<Frame | null> => {
        const f = page.frames().find((fr) => fr.url().startsWith(`http://5173-${sandboxId}.app.localhost:`));
        return f &&
          (await f
            .getByText(`${FIXED_TEXT} 0`)
            .count()
            .catch(() => 0)) > 0
          ? f
          : null;
      },
      (f) => f !== null,
      45_000,
    );
    expect(await frame!.locator("h1").innerText()).toBe(`${FIXED_TEXT} 0`);
    await shot(page, "fixed-preview");
  });

  step("an App that throws at render (compiles fine) is caught by the open preview and the error reaches the model", async () => {
    model.reset();
    const preview = watchPings();
    const pings = preview.pings;
    let writtenAt = 0;
    model.respondWith((req): FakeTurn => {
      const m = last(req);
      if (isRepairStep(m))
        return turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: importing("Missing") } }], "I will fix the render.");
      if (m.role === "tool") return turn.text("Done.");
      writtenAt = Date.now();
      return turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: THROWING_APP } }]);
    });
    try {
      await sendAndWait("Show the items", 150_000, preview.ready);
    } finally {
      preview.stop();
    }

    const repairs = model.requests.map((r) => last(r.body)).filter(isRepairStep);
    expect(repairs.length).toBe(1);
    expect(repairs[0]!.text).toContain("[browser]");
    expect(repairs[0]!.text).toContain("Render failed: no items loaded");
    // The preview ran the written App as a hot update and said so (a ping for code loaded after the write).
    expect(pings.some((p) => p.at - p.loadAgeMs >= writtenAt - 50)).toBe(true);
    await stepLine(page, /Found \d+ problems?, fixing \(1\/3\)/).waitFor();
    await stepLine(page, "App runs without errors").waitFor();
    expect(await lastAssistant(page).getAttribute("data-status")).not.toBe("failed");
    await shot(page, "render-error-fixed");
  });

  step(
    "a crash that survives the first repair rounds is reported again in rounds 2 and 3, and the fix of round 3 shows in the preview",
    async () => {
      model.reset();
      let attempts = 0;
      model.respondWith((req): FakeTurn => {
        const m = last(req);
        if (isRepairStep(m)) {
          attempts++;
          // Rounds 1 and 2 change the file but not the crash (the page runs each as a hot update and throws again).
          const content = attempts < 3 ? `// attempt ${attempts}\n${THROWING_APP}` : importing("Missing");
          return turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content } }], "I will fix the render.");
        }
        if (m.role === "tool") return turn.text("Done.");
        return turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: THROWING_APP } }]);
      });
      const preview = watchPings();
      try {
        await sendAndWait("Show the items again", 240_000, preview.ready);
      } finally {
        preview.stop();
      }

      const repairs = model.requests.map((r) => last(r.body)).filter(isRepairStep);
      expect(repairs.length).toBe(3);
      for (const repair of repairs) expect(repair.text).toContain("Render failed: no items loaded");
      await stepLine(page, /Found 1 problem \(0 fixed, 1 left\), fixing \(2\/3\)/).waitFor();
      await stepLine(page, /Found 1 problem \(0 fixed, 1 left\), fixing \(3\/3\)/).waitFor();
      await stepLine(page, "App runs without errors").waitFor();
      expect(await lastAssistant(page).getAttribute("data-status")).not.toBe("failed");

      await page.goto(`${app.url}/project/${projectId}/preview`);
      await until(
        "the round-3 fix rendered in the preview",
        async () => {
          const f = page.frames().find((fr) => fr.url().startsWith(`http://5173-${sandboxId}.app.localhost:`));
          return f
            ? await f
                .getByText(`${FIXED_TEXT} 0`)
                .count()
                .catch(() => 0)
            : 0;
        },
        (n) => n > 0,
        45_000,
      );
      await shot(page, "survived-then-fixed");
    },
    300_000,
  );

  step("a model that never fixes the app stops after AGENT_REPAIR_ROUNDS, naming the remaining problem", async () => {
    model.reset();
    model.respondWith((req): FakeTurn => {
      const m = last(req);
      if (isRepairStep(m)) return turn.text("I am not able to fix that.");
      if (m.role === "tool") return turn.text("Done.");
      return turn.toolCalls([{ name: "write_file", arguments: { path: "src/App.tsx", content: importing("Gone") } }]);
    });
    await sendAndWait("Use a Gone component");

    const repairs = model.requests.map((r) => last(r.body)).filter(isRepairStep);
    expect(
      repairs.map((r) =>
        r.text
          .match(/repair round (\d) of (\d)/)
          ?.slice(1)
          .join("/"),
      ),
    ).toEqual(["1/3", "2/3", "3/3"]);
    expect(repairs[2]!.text).toContain('Failed to resolve import "./Gone" from "src/App.tsx"');

    // Rounds after the first say what changed since the last: "Found 1 problem (0 fixed, 1 left), fixing (3/3)".
    await stepLine(page, /Found \d+ problems? \(0 fixed, \d+ left\), fixing \(3\/3\)/).waitFor();
    await stepLine(page, /App still has \d+ problems? after 3 repair rounds/).waitFor();
    const answer = lastAssistant(page);
    await answer.getByText(/The app still has problems after 3 repair rounds/).waitFor({ timeout: 20_000 });
    expect(await answer.innerText()).toContain('src/App.tsx:2 — Failed to resolve import "./Gone"');
    expect(await answer.getAttribute("data-status")).toBe("failed");
    await shot(page, "gave-up");
  });

  step("the same failing tool call three times stops the run as stuck", async () => {
    model.reset();
    model.respondWith((): FakeTurn => turn.toolCalls([{ name: "read_file", arguments: { path: "src/NoSuchFile.tsx" } }]));
    await sendAndWait("Read the file that is not there");

    expect(model.requests.length).toBe(3);
    const answer = lastAssistant(page);
    await answer.getByText(/The agent was stuck: the same read_file call failed 3 times in a row/).waitFor({ timeout: 20_000 });
    expect(await answer.getAttribute("data-status")).toBe("failed");
    await shot(page, "stuck");
  });
});
