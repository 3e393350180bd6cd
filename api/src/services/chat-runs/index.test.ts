import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { grantedAccess } from "../../test/access";
import { testApp } from "../../test/test-app";
import { uploadImage } from "../images";
import { ABANDONED_NOTE, createChatRuns, type ChatRuns } from "./index";

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

let t: Awaited<ReturnType<typeof testApp>>;
let chatRuns: ChatRuns;
beforeAll(async () => {
  t = await testApp();
  chatRuns = createChatRuns({ ...t.deps, sandboxes: null });
}, 60_000);
afterAll(() => t.deps.runs.shutdown());

/** Each project's owner, who sends its messages. */
const owners = new Map<string, string>();
async function project(name = "Chat runs") {
  const user = t.user("owner");
  const res = await user.request("POST", "/api/projects", { name, description: "A test" });
  const projectId = ((await res.json()) as { id: string }).id;
  owners.set(projectId, user.uid);
  return { ownerId: user.uid, projectId };
}

const row = async (id: string) =>
  (
    await t.db.sql<{ role: string; content: string; status: string | null; thinking: string | null; toolCalls: unknown }[]>`
    select role, content, status, thinking, tool_calls as "toolCalls" from messages where id = ${id}`
  )[0];

const claimFor = (projectId: string, content = "Build it") => ({
  projectId,
  senderId: owners.get(projectId)!,
  userMessageId: crypto.randomUUID(),
  assistantMessageId: crypto.randomUUID(),
  content,
  attachments: [],
});

describe("chat runs service", () => {
  test("attached images: this project's upload is read as base64; another project's or a stranger URL is a 400", async () => {
    const { ownerId, projectId } = await project();
    const other = await project("Other");
    const { url } = await uploadImage({ ...t.deps, maxBytes: 1_000_000 }, grantedAccess(ownerId, projectId), new File([PNG], "dot.png"));
    expect(await chatRuns.readImages(projectId, [url])).toEqual([{ mime: "image/png", base64: PNG.toString("base64") }]);
    await expect(chatRuns.readImages(other.projectId, [url])).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("attachments.0: not an image uploaded to this project"),
    });
    await expect(chatRuns.readImages(projectId, ["https://example.com/cat.png"])).rejects.toMatchObject({ status: 400 });
    const forged = url.replace(/sig=[^&]+/, "sig=AAAA");
    await expect(chatRuns.readImages(projectId, [forged])).rejects.toMatchObject({ message: expect.stringContaining("expired or is invalid") });
  });

  test("a claim saves the question and a running answer; a second claim on the project is refused until the first finishes", async () => {
    const { projectId } = await project();
    const first = claimFor(projectId);
    expect(await chatRuns.claim(first)).toBe(true);
    expect(await row(first.userMessageId)).toMatchObject({ role: "user", content: "Build it" });
    expect(await row(first.assistantMessageId)).toMatchObject({ role: "assistant", content: "", status: "running" });
    expect(await chatRuns.claim(claimFor(projectId, "Again"))).toBe(false);

    const progress = {
      content: "Half",
      thinking: "hmm",
      toolCalls: [{ name: "write_file", summary: "a.txt", status: "in_progress" as const }],
      actions: [],
      usage: null,
    };
    await chatRuns.saveProgress(first.assistantMessageId, progress);
    await chatRuns.heartbeat(first.assistantMessageId);
    expect(await row(first.assistantMessageId)).toMatchObject({ content: "Half", thinking: "hmm", status: "running", toolCalls: progress.toolCalls });
    await chatRuns.finish(first.assistantMessageId, projectId, { ...progress, content: "All done", status: "complete" });
    expect(await row(first.assistantMessageId)).toMatchObject({ content: "All done", status: "complete" });
    // Progress arriving after the end does not reopen the answer.
    await chatRuns.saveProgress(first.assistantMessageId, { ...progress, content: "late" });
    expect((await row(first.assistantMessageId))!.content).toBe("All done");
    expect(await chatRuns.claim(claimFor(projectId))).toBe(true);
  });

  test("an answer not refreshed since the cut-off is failed with a note; a fresh one is left running", async () => {
    const { projectId } = await project();
    const stale = claimFor(projectId);
    await chatRuns.claim(stale);
    await chatRuns.saveProgress(stale.assistantMessageId, { content: "Partial", thinking: null, toolCalls: [], actions: [], usage: null });
    expect(await chatRuns.failAbandoned(projectId, new Date(Date.now() - 60_000))).toBe(0);
    expect((await row(stale.assistantMessageId))!.status).toBe("running");
    expect(await chatRuns.failAbandoned(projectId, new Date(Date.now() + 1_000))).toBe(1);
    expect(await row(stale.assistantMessageId)).toMatchObject({ status: "failed", content: `Partial\n\n${ABANDONED_NOTE}` });
  });

  test("loading the conversation: the project as the prompt describes it, its files, its messages oldest first", async () => {
    const { ownerId, projectId } = await project("Todo");
    await chatRuns.forProject(grantedAccess(ownerId, projectId)).files.write("src/App.tsx", "export {};\n");
    const claim = claimFor(projectId, "Make a todo app");
    await chatRuns.claim(claim);
    const loaded = await chatRuns.load(grantedAccess(ownerId, projectId));
    expect(loaded.project).toMatchObject({ name: "Todo", description: "A test", workflowCommand: null });
    expect(loaded.project.files.map((f) => [f.path, f.size])).toEqual([["src/App.tsx", 11]]);
    expect(loaded.messages.map((m) => [m.id, m.role])).toEqual([
      [claim.userMessageId, "user"],
      [claim.assistantMessageId, "assistant"],
    ]);
    // A project deleted since its access was checked loads as missing.
    await expect(chatRuns.load(grantedAccess(ownerId, crypto.randomUUID()))).rejects.toMatchObject({ status: 404 });
  });
});
