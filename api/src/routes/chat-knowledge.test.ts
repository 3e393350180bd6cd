// Project knowledge: AGENTS.md at the project root reaches the model's system prompt on every run, capped at
// 8 KB with a note when cut (services/chat-runs/project-knowledge.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { chatTestApp, readEvents } from "../test/chat-test-app";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";

let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({ model });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});
beforeEach(() => model.reset());

type ChatUser = ReturnType<typeof t.user>;
const systemOf = (at: number) => String(model.requests[at]!.body.messages[0]!.content);
async function run(u: ChatUser, projectId: string, content: string) {
  model.enqueue(turn.steps({ text: "ok" }));
  await readEvents(await u.request("POST", "/api/messages/stream", { projectId, content }));
}

describe("AGENTS.md in the system prompt", () => {
  test("its text reaches the model on every run; an edit shows in the next run; none, no section", async () => {
    const alice = t.user("alice");
    const projectId = await alice.project();
    await run(alice, projectId, "Before");
    expect(systemOf(0)).not.toContain("## Project knowledge");

    const created = await alice.request("POST", `/api/files/${projectId}`, { path: "AGENTS.md", content: "# Notes\nAlways answer in pirate speak.\n" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await run(alice, projectId, "First");
    expect(systemOf(1)).toContain("## Project knowledge (AGENTS.md)");
    expect(systemOf(1)).toContain("Always answer in pirate speak.");
    expect(systemOf(1)).not.toContain("only its first");

    expect((await alice.request("PATCH", `/api/files/${id}/content`, { content: "Use Tailwind for every style.\n" })).status).toBe(200);
    await run(alice, projectId, "Second");
    expect(systemOf(2)).toContain("Use Tailwind for every style.");
    expect(systemOf(2)).not.toContain("pirate");
  });

  test("a file over 8 KB is cut there, with a note naming its size", async () => {
    const bob = t.user("bob");
    const projectId = await bob.project();
    const line = "Rule: keep components small and named after what they show.\n"; // 61 bytes
    const content = `${line.repeat(200)}THE-TAIL-PAST-THE-CAP\n`;
    expect((await bob.request("POST", `/api/files/${projectId}`, { path: "AGENTS.md", content })).status).toBe(201);
    await run(bob, projectId, "Go");
    const system = systemOf(0);
    expect(system).toContain(line);
    expect(system).not.toContain("THE-TAIL-PAST-THE-CAP");
    const size = new TextEncoder().encode(content).length;
    expect(system).toMatch(new RegExp(`AGENTS\\.md is ${size} bytes; only its first \\d+ bytes are shown above`));
    const kept = system.split("## Project knowledge (AGENTS.md)")[1]!.split("(AGENTS.md is")[0]!;
    expect(new TextEncoder().encode(kept).length).toBeLessThan(8 * 1024 + 400); // the cap, plus the section's heading text
  });
});
