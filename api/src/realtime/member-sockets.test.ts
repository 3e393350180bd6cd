/**
 * Members' sockets through the real server: every member's file-event socket hears the project's changes; a
 * removed member's socket is unsubscribed and hears nothing more; a member made a viewer has their terminal
 * closed (4403), one removed has it closed too.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { PTY_CLOSE, PTY_PROTOCOL } from "@shared/events/pty-frames";
import { silentLogger } from "../lib/logger";
import type { Sandbox, SandboxProvider, TerminalSession } from "../sandbox/types";
import { createTerminalSessions } from "../services/sandboxes/terminals";
import { appServer } from "../test/app-server";
import { emailOf, sharedProject } from "../test/members";
import { memoryProvider } from "../test/memory-provider";
import { listenToProject, until } from "../test/project-socket";
import { testApp } from "../test/test-app";
import { createPtySocket } from "./pty-socket";

// In-memory sandboxes whose terminal stays open until hung up, so only an access change closes it.
const withTerminal = (sandbox: Sandbox): Sandbox => ({
  ...sandbox,
  openTerminal: async (): Promise<TerminalSession> => ({ write() {}, resize() {}, close() {} }),
});
const memory = memoryProvider({ startMs: 0 }).provider;
const provider: SandboxProvider = {
  ...memory,
  create: async (projectId) => withTerminal(await memory.create(projectId)),
  connect: async (sandboxId) => {
    const found = await memory.connect(sandboxId);
    return found && withTerminal(found);
  },
};
const t = await testApp({ provider });
const terminals = createTerminalSessions({ sandboxes: t.deps.sandboxes, logger: silentLogger, idleMs: 0 });
const pty = createPtySocket({ ...t.deps, terminals });
const server = appServer(t, { pty });
afterAll(async () => {
  pty.close();
  terminals.closeAll();
  server.stop();
  await t.deps.sandboxes.shutdown();
});

const person = (name: string) => t.user(`${name}${crypto.randomUUID().slice(0, 8)}`);

/** A subscribed file-event socket, everything it heard, and the files it heard created. */
async function listen(token: string, projectId: string) {
  const socket = await listenToProject(server.ws, token, projectId);
  return { ...socket, paths: () => socket.heard.filter((m) => m.type === "file.created").map((m) => m.file!.path) };
}

describe("members' sockets", () => {
  test("every member hears the project's file events; a removed member's socket stops hearing them", async () => {
    const owner = person("own");
    const editor = person("ed");
    const viewer = person("vi");
    const id = await sharedProject(owner, { editor, viewer });
    const [o, e, v] = await Promise.all([listen(owner.token, id), listen(editor.token, id), listen(viewer.token, id)]);
    await owner.request("POST", `/api/files/${id}`, { path: "one.txt", content: "1" });
    await until("all three hear one.txt", () => [o, e, v].every((s) => s.paths().includes("one.txt")));

    expect((await owner.request("DELETE", `/api/projects/${id}/members/${emailOf(editor)}`)).status).toBe(204);
    await until("the removed editor is told", () => e.heard.some((m) => m.type === "error"));
    await owner.request("POST", `/api/files/${id}`, { path: "two.txt", content: "2" });
    await until("the others hear two.txt", () => [o, v].every((s) => s.paths().includes("two.txt")));
    await Bun.sleep(200);
    expect(e.paths()).toEqual(["one.txt"]);
    for (const s of [o, e, v]) s.ws.close();
  });

  test("a member's terminal closes when they are made a viewer (4403) or removed (4404)", async () => {
    const owner = person("own");
    const first = person("ed1");
    const second = person("ed2");
    const id = await sharedProject(owner, { editor: first });
    await sharedProject(owner, {}); // another project of the owner's, untouched
    await owner.request("POST", `/api/projects/${id}/members`, { email: emailOf(second), role: "editor" });
    await second.request("POST", "/api/auth/sync", { id: second.uid });

    const closed = (token: string) =>
      new Promise<{ opened: boolean; close: Promise<number> }>((resolve) => {
        const ws = new WebSocket(`${server.ws}/api/sandbox/${id}/pty`, [PTY_PROTOCOL, token]);
        const close = new Promise<number>((r) => ws.addEventListener("close", (e) => r(e.code)));
        ws.onopen = () => resolve({ opened: true, close });
      });
    const a = await closed(first.token);
    const b = await closed(second.token);
    expect(a.opened && b.opened).toBe(true);
    await Bun.sleep(200); // both sessions open
    const viewerCode = owner.request("PATCH", `/api/projects/${id}/members/${emailOf(first)}`, { role: "viewer" }).then(() => a.close);
    const removedCode = owner.request("DELETE", `/api/projects/${id}/members/${emailOf(second)}`).then(() => b.close);
    const codes = await Promise.all([viewerCode, removedCode]);
    expect(codes).toEqual([PTY_CLOSE.forbidden, PTY_CLOSE.notFound]);
  });
});
