/**
 * A secret asked for in the chat, end to end: real Chromium, the real app with a real local sandbox, and the
 * scripted model. The model calls request_secret; the inline form appears; the user types the value, which
 * goes straight to the secrets API; the run goes on, and the model's run_shell echoes the variable and its
 * read_file reads a file holding it. The model server's request log shows the value in no request, and
 * `[secret NAME]` where it was echoed and read. The Settings dialog lists the secret (never its value) and
 * shows the server's reason for a refused name. Screenshots go to e2e/artifacts/secrets-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";
import { type ModelApp, startModelApp } from "./support/model-app";
import { ARTIFACTS } from "./support/stack";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;

const NAME = "WEATHER_API_KEY";
const VALUE = `wk-${crypto.randomUUID().replaceAll("-", "")}`;
const REDACTED = `[secret ${NAME}]`;

let m: ModelApp;
let model: FakeModelServer;
let app: AppServer;
let page: Page;
let projectId: string;
const cleanups: Array<() => unknown> = [];
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `secrets-${name}.png`) });

beforeAll(async () => {
  if (SKIP) return;
  m = await startModelApp({ name: "secrets", cleanups, env: { OPENAI_MODEL: "fake-model" } });
  ({ model, app, page } = m);
  projectId = (await m.api<Project>("POST", "/api/projects", { name: "Weather" })).id;
}, 300_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("a secret asked for in the chat", () => {
  const run = SKIP ? test.skip : test;
  run(
    "is typed into the inline form, used in the sandbox, and reaches the model only as [secret NAME]",
    async () => {
      try {
        model.reset();
        model.enqueue(
          turn.toolCalls([{ name: "request_secret", arguments: { name: NAME, reason: "To call the OpenWeather API from the app's server." } }]),
          turn.toolCalls([{ name: "run_shell", arguments: { command: `echo "key=$${NAME}" | tee key.txt` } }]),
          turn.toolCalls([{ name: "read_file", arguments: { path: "key.txt" } }]),
          turn.text("The weather key is set and works."),
        );
        await page.goto(`${app.url}/project/${projectId}/chat`);
        await page.getByTestId("chat-input").fill("Show the weather with my API key");
        await page.getByTestId("chat-input").press("Enter");

        const form = page.getByTestId("secret-request");
        await form.waitFor({ timeout: 60_000 });
        expect(await form.textContent()).toContain(NAME);
        expect(await form.textContent()).toContain("To call the OpenWeather API");
        await form.getByLabel("Value").fill(VALUE);
        await shot("form");
        await form.getByRole("button", { name: "Save secret" }).click();
        await page.getByTestId("send-button").waitFor({ timeout: 120_000 });
        await shot("done");

        // The run heard "set" and went on; the sandbox had the real value (the file it wrote holds it).
        const bodies = model.requests.map((r) => JSON.stringify(r.body));
        expect(bodies.length).toBe(4);
        const files = await m.api<{ id: string; path: string }[]>("GET", `/api/files/${projectId}`);
        const keyFile = files.find((f) => f.path === "key.txt")!;
        expect((await m.api<{ content: string }>("GET", `/api/files/${projectId}/${keyFile.id}`)).content).toBe(`key=${VALUE}\n`);

        // The value is in no request the model received; [secret NAME] is where it was echoed and read.
        for (const body of bodies) expect(body).not.toContain(VALUE);
        expect(bodies[1]).toContain('"content":"set"');
        expect(bodies[2]).toContain(`key=${REDACTED}`);
        expect(bodies[3]).toContain(`key=${REDACTED}`);

        // Nor in what the chat saved and shows.
        expect(JSON.stringify(await m.api("GET", `/api/messages/${projectId}`))).not.toContain(VALUE);
        expect(await page.locator("body").innerText()).not.toContain(VALUE);

        // Settings lists the name only, and shows the server's reason for a name the system sets.
        await page.getByTestId("settings-button").click();
        const panel = page.getByTestId("secrets-panel");
        await panel.getByTestId("secret-list").getByText(NAME).waitFor();
        expect(await panel.innerText()).not.toContain(VALUE);
        await panel.getByLabel("Name").fill("PORT");
        await panel.getByLabel("Value").fill("8080");
        await panel.getByRole("button", { name: "Save secret" }).click();
        await panel.getByText("PORT is set by the system in every sandbox process; choose another name.").waitFor();
        await shot("settings");
      } catch (err) {
        await shot("failure").catch(() => {});
        console.error(`--- app output ---\n${app.output().slice(-4000)}`);
        throw err;
      }
    },
    240_000,
  );
});
