/**
 * Git and agent runs, on the real app with the scripted model and a real git smart-HTTP server: an agent
 * run that changes files is pushed automatically when auto-push is on (the remote has the commit, authored
 * by the user); a failed automatic push shows in the chat and the run still completes; a pulled commit
 * reaches the project's sandbox; and the token appears in no log line, no model request and no file or
 * environment variable of the sandbox (nor anywhere under DATA_DIR).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "@shared/schemas/message";
import { createLogger } from "../lib/logger";
import { chatTestApp, readEvents } from "../test/chat-test-app";
import { type FakeModelServer, startFakeModelServer, turn } from "../test/fake-model-server";
import { startGitServer } from "../test/git-server";
import { sandboxSupport } from "../test/tool-harness";

const USER = "runbot";
const TOKEN = "tok-run-5e4d3c2b1a0f";
const support = await sandboxSupport();
if (!support.ok) console.warn(`git sandbox checks skipped: local sandboxes are unavailable here (${support.why})`);

const logLines: string[] = [];
let model: FakeModelServer;
let t: Awaited<ReturnType<typeof chatTestApp>>;
const server = await startGitServer({ username: USER, password: TOKEN });
beforeAll(async () => {
  model = await startFakeModelServer();
  t = await chatTestApp({
    model,
    env: { GIT_ALLOW_HTTP: "true", GIT_ALLOW_PRIVATE_HOSTS: "true" },
    agent: { limits: { maxSteps: 6 } },
    logger: createLogger("debug", (line) => logLines.push(line)),
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await model.close();
  server.close();
});
beforeEach(() => model.reset());

type ChatUser = ReturnType<typeof t.user>;
const send = (u: ChatUser, projectId: string, content: string) => u.request("POST", "/api/messages/stream", { projectId, content });

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if (st.isDirectory()) out.push(...filesUnder(path));
    else if (st.isFile() && st.size < 20 * 1048576) out.push(path);
  }
  return out;
}

describe("git with agent runs", () => {
  test("auto-push after a run that changed files: the remote has the commit, authored by the user", async () => {
    const olga = t.user("olga");
    const projectId = await olga.project();
    const repo = server.createRepo("auto");
    expect((await olga.request("PUT", `/api/projects/${projectId}/git`, { url: repo, username: USER, token: TOKEN, autoPush: true })).status).toBe(200);
    model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "hello.txt", content: "hello from the agent\n" } }]), turn.text("Wrote it."));
    const events = await readEvents(await send(olga, projectId, "Write hello.txt"));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    expect(server.show("auto", "hello.txt")).toBe("hello from the agent");
    expect(server.git(["--git-dir", server.pathOf("auto"), "log", "-1", "--format=%an <%ae>|%s", "main"])).toBe("olga <olga@example.com>|Write hello.txt");

    // A run that changes nothing pushes nothing.
    model.enqueue(turn.text("Nothing to do."));
    await readEvents(await send(olga, projectId, "Just say hi"));
    expect(server.git(["--git-dir", server.pathOf("auto"), "rev-list", "--count", "main"])).toBe("1");
  }, 60_000);

  test("a failed automatic push shows in the chat, and the run is not failed", async () => {
    const olga = t.user("olga");
    const projectId = await olga.project();
    const repo = server.createRepo("moved");
    await olga.request("PUT", `/api/projects/${projectId}/git`, { url: repo, username: USER, token: TOKEN, autoPush: true });
    server.commit("moved", { "theirs.txt": "theirs\n" }, "Made elsewhere");
    model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "ours.txt", content: "ours\n" } }]), turn.text("Done."));
    const events = await readEvents(await send(olga, projectId, "Write ours.txt"));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "complete" });
    const warning = events.find((e) => e.type === "chunk" && e.step === "warning") as { content: string } | undefined;
    expect(warning?.content).toContain("The automatic push to");
    expect(warning?.content).toContain("The remote has changes: pull first.");
    const messages = (await (await olga.request("GET", `/api/messages/${projectId}`)).json()) as Message[];
    expect(messages.at(-1)!.content).toContain("The remote has changes: pull first.");
  }, 60_000);

  test.skipIf(!support.ok)(
    "a pulled commit reaches the sandbox; the token is in no log line, model request, sandbox file or environment",
    async () => {
      const olga = t.user("olga");
      const projectId = await olga.project();
      const repo = server.createRepo("secret");
      await olga.request("PUT", `/api/projects/${projectId}/git`, { url: repo, username: USER, token: TOKEN });
      // The agent writes a file (its run starts the sandbox), then the remote gains a commit that is pulled.
      model.enqueue(turn.toolCalls([{ name: "run_shell", arguments: { command: "echo started > started.txt" } }]), turn.text("Started."));
      await readEvents(await send(olga, projectId, "Start"));
      expect((await olga.request("POST", `/api/projects/${projectId}/git/push`, {})).status).toBe(200);
      server.commit("secret", { "pulled.txt": "from the remote\n" }, "Remote file");
      expect((await olga.request("POST", `/api/projects/${projectId}/git/pull`)).status).toBe(200);

      // The sandbox has the pulled file; its environment and files are shown to the model, and so checked.
      model.enqueue(
        turn.toolCalls([{ name: "run_shell", arguments: { command: "cat pulled.txt; env; grep -rl tok- . /tmp 2>/dev/null; echo end" } }]),
        turn.text("Checked."),
      );
      const events = await readEvents(await send(olga, projectId, "Show me"));
      const shell = events.find((e) => e.type === "tool_complete") as { result: string } | undefined;
      expect(shell?.result).toContain("from the remote");
      expect(shell?.result).toContain("end");
      expect(shell?.result).not.toContain(TOKEN);

      expect(JSON.stringify(model.requests)).not.toContain(TOKEN);
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.filter((l) => l.includes(TOKEN))).toEqual([]);
      const basic = Buffer.from(`${USER}:${TOKEN}`).toString("base64");
      const leaks = filesUnder(t.deps.config.dataDir).filter((path) => {
        const text = readFileSync(path).toString("latin1");
        return text.includes(TOKEN) || text.includes(basic);
      });
      expect(leaks).toEqual([]);
      // The remote did receive it, so the checks above looked for something real.
      expect(server.requests.some((r) => r.authorization === `Basic ${basic}`)).toBe(true);
    },
    120_000,
  );
});
