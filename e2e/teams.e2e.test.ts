/**
 * Working together, end to end in Chromium with two signed-in people in two browser contexts (issue 26): the
 * owner invites the other as an editor from the Share dialog; the editor finds the project under "Shared with
 * me", sees the owner there (presence) and watches the owner's message stream in; the owner makes them a
 * viewer, and their composer and terminal switch off at once (their Files and History offer no writes, their
 * people button reads People, not Share), the saved message names the owner as its sender for the editor; the
 * owner removes them, and their next load says the project is not found (the API's 404). Real app, scripted
 * model, Auth emulator.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Member } from "@shared/schemas/members";
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import { assistant, input, openChat, user } from "./support/chat";
import { type ModelApp, startModelApp } from "./support/model-app";
import { signInWithGoogle, uniqueEmail } from "./support/sign-in";

const cleanups: Array<() => unknown> = [];
let m: ModelApp;
let owner: Page;
let editor: Page;
let projectId: string;
const editorEmail = uniqueEmail("teams-editor");
const editorName = "Edda Editor";

beforeAll(async () => {
  m = await startModelApp({ name: "teams", cleanups, env: { OPENAI_MODEL: "fake-model" } });
  owner = m.page;
  projectId = (await m.api<Project>("POST", "/api/projects", { name: "Team E2E" })).id;
  editor = await m.stack.newPage({ width: 1440, height: 900 });
  cleanups.push(() => editor.context().close());
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

/** The owner's Share dialog, open. */
async function openMembers() {
  await owner.getByTestId("members-button").click();
  await owner.getByTestId("member-list").waitFor();
}
const closeDialog = () => owner.getByRole("dialog").getByText("Close", { exact: true }).click();

describe("a project shared by its owner", () => {
  test("invite → Shared with me → live run → viewer → removed", async () => {
    // The owner invites the other person as an editor.
    await openChat(owner, projectId, m.app.url);
    await openMembers();
    await owner.locator("#invite-email").fill(editorEmail);
    await owner.getByRole("combobox", { name: "Role", exact: true }).selectOption("editor");
    await owner.getByRole("button", { name: "Invite" }).click();
    const row = owner.locator(`[data-testid="member-row"][data-email="${editorEmail}"]`);
    await row.getByText("invited").waitFor();
    // Inviting them twice is refused with the server's reason.
    await owner.locator("#invite-email").fill(editorEmail);
    await owner.getByRole("button", { name: "Invite" }).click();
    await owner.getByTestId("members-error").getByText("already a member").waitFor();
    await closeDialog();

    // They sign in and find it under "Shared with me", with the owner's name and their role.
    await signInWithGoogle(editor, m.app.url, { email: editorEmail, displayName: editorName });
    const members = await m.api<Member[]>("GET", `/api/projects/${projectId}/members`);
    const ownerEmail = members.find((p) => p.role === "owner")!.email;
    const card = editor.getByTestId("shared-project-card").filter({ hasText: "Team E2E" });
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getByTestId("shared-project-owner").innerText()).toMatch(new RegExp(`${ownerEmail.split("@")[0]}.*you are an editor`));
    await card.getByTestId("shared-project-name").click();
    await editor.waitForURL(`**/project/${projectId}/chat`);
    await editor.getByTestId("chat-composer").waitFor();

    // Each sees the other in the chat header.
    await owner.getByTestId("presence-avatar").and(owner.getByLabel(editorName)).waitFor({ timeout: 20_000 });
    await editor.getByTestId("presence-avatar").first().waitFor({ timeout: 20_000 });

    // The owner sends; the editor watches the message and the answer as it grows, with who sent it.
    m.model.enqueue(turn.steps({ text: "Building the list." }, { delayMs: 2500 }, { text: " Done: a todo list." }));
    await input(owner).fill("Build a todo list");
    await input(owner).press("Enter");
    await editor.getByTestId("run-by").getByText("sent this message").waitFor({ timeout: 20_000 });
    await user(editor).filter({ hasText: "Build a todo list" }).waitFor({ timeout: 20_000 });
    await assistant(editor).last().getByText("Building the list.").waitFor({ timeout: 20_000 });
    // Still growing: the rest has not come yet.
    expect(await assistant(editor).last().innerText()).not.toContain("Done: a todo list.");
    await assistant(editor).last().getByText("Done: a todo list.").waitFor({ timeout: 20_000 });
    await editor.getByTestId("send-button").waitFor();
    // The saved message names its sender for the other member; the sender reads "You".
    await user(editor).filter({ hasText: "Build a todo list" }).getByTestId("message-sender").waitFor({ timeout: 20_000 });
    expect(await user(owner).filter({ hasText: "Build a todo list" }).getByTestId("message-sender").count()).toBe(0);

    // The owner makes them a viewer: their composer turns off at once, and so does their terminal.
    await openMembers();
    await owner.getByRole("combobox", { name: `Role of ${editorEmail}` }).selectOption("viewer");
    await owner.getByTestId("activity-button").waitFor();
    await closeDialog();
    await editor.getByTestId("view-only-note").waitFor({ timeout: 20_000 });
    expect(await input(editor).isDisabled()).toBe(true);
    // Only the owner brings people in: theirs reads Share, the viewer's People (the list, read-only).
    expect(await editor.getByTestId("members-button").innerText()).toContain("People");
    expect(await owner.getByTestId("members-button").innerText()).toContain("Share");
    await editor.goto(`${m.app.url}/project/${projectId}/terminal`);
    await editor.getByTestId("terminal-disabled").getByText("You can only view this project.").waitFor();
    // Their Files offer View only (no Rename or Delete), and History shows versions with no Save or Restore.
    await m.api("POST", `/api/files/${projectId}`, { path: "notes.md", content: "# Notes\n" });
    await editor.goto(`${m.app.url}/project/${projectId}/files`);
    const fileRow = editor.locator('[data-testid="file-row"][data-path="notes.md"]');
    await fileRow.getByRole("button", { name: "View notes.md" }).waitFor({ timeout: 20_000 });
    expect(await fileRow.getByRole("button", { name: /^(Rename|Delete) notes\.md$/ }).count()).toBe(0);
    await editor.getByTestId("open-history").click();
    await editor.getByTestId("selected-version-label").waitFor({ timeout: 20_000 });
    expect(await editor.getByTestId("restore-version").count()).toBe(0);
    expect(await editor.getByTestId("save-version-form").count()).toBe(0);

    // The Activity panel lists what happened, newest first.
    await owner.getByTestId("activity-button").click();
    await owner.getByTestId("activity-entry").first().getByText(`made ${editorEmail} a viewer`).waitFor();
    await closeDialog();

    // The owner removes them: their next load is the API's 404.
    await openMembers();
    await owner.getByRole("button", { name: `Remove ${editorEmail}` }).click();
    await row.waitFor({ state: "detached" });
    await closeDialog();
    const answered = editor.waitForResponse((r) => r.url().endsWith(`/api/projects/${projectId}`) && r.request().method() === "GET");
    await editor.goto(`${m.app.url}/project/${projectId}/chat`);
    expect((await answered).status()).toBe(404);
    await editor.getByText("Project not found").first().waitFor();
  }, 240_000);
});
