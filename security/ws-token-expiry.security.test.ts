/**
 * Attack replayed: keep a file-event WebSocket open after the sign-in token that opened it expires (a
 * stolen token, or a user signed out or disabled since) and go on receiving the project's file events.
 * Safe outcome: the server closes the socket at the token's `exp` (code 4401), nothing is delivered after
 * it, and a fresh token connects again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { WS_PROTOCOL } from "@shared/events/project-events";
import { emulatorToken } from "../api/src/test/emulator-tokens";
import { TOKEN_EXPIRED_CLOSE } from "../api/src/realtime/ws-hub";
import { appServer, type AppServer } from "../api/src/test/app-server";
import { TEST_PROJECT_ID, testApp } from "../api/src/test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
let server: AppServer;
beforeAll(async () => {
  t = await testApp();
  server = appServer(t);
}, 60_000);
afterAll(() => server?.stop());

function open(token: string) {
  const ws = new WebSocket(`${server.ws}/api/ws`, [WS_PROTOCOL, token]);
  const messages: { type: string; projectId?: string }[] = [];
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
  const closed = new Promise<{ code: number; at: number }>((resolve) => (ws.onclose = (e) => resolve({ code: e.code, at: Date.now() })));
  const opened = new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  return { ws, messages, closed, opened };
}

describe("WebSocket lifetime follows the token", () => {
  test("a socket opened with a token that expires in 2 s is closed at its exp and gets nothing after", async () => {
    const alice = t.user("alice");
    const project = (await (await alice.request("POST", "/api/projects", { name: "Ws" })).json()) as { id: string };
    const expiresInSec = 2;
    const shortToken = emulatorToken(TEST_PROJECT_ID, { uid: alice.uid, email: "alice@example.com", expiresInSec });
    const expMs = (Math.floor(Date.now() / 1000) + expiresInSec) * 1000;
    const socket = open(shortToken);
    await socket.opened;
    socket.ws.send(JSON.stringify({ type: "subscribe", projectId: project.id }));
    for (let i = 0; i < 50 && !socket.messages.some((m) => m.type === "subscribed"); i++) await Bun.sleep(20);
    // While the token is valid, events arrive: the channel works.
    await alice.request("POST", `/api/files/${project.id}`, { path: "before.txt", content: "x" });
    for (let i = 0; i < 50 && !socket.messages.some((m) => m.type === "file.created"); i++) await Bun.sleep(20);
    // (`presence` says who has the project open: the hub tells every subscriber.)
    expect(socket.messages.map((m) => m.type).filter((type) => type !== "presence")).toEqual(["subscribed", "file.created"]);

    const closed = await Promise.race([socket.closed, Bun.sleep(6_000).then(() => null)]);
    expect(closed?.code).toBe(TOKEN_EXPIRED_CLOSE);
    expect(closed!.at).toBeGreaterThanOrEqual(expMs - 50);
    expect(closed!.at).toBeLessThan(expMs + 1_500);

    await alice.request("POST", `/api/files/${project.id}`, { path: "after.txt", content: "x" });
    await Bun.sleep(200);
    expect(socket.messages.filter((m) => m.type === "file.created").length).toBe(1);

    // The client's reconnect, with a fresh token, works.
    const again = open(alice.token);
    await again.opened;
    again.ws.close();
  }, 20_000);

  test("an already-expired token cannot open a socket", async () => {
    const bob = t.user("bob");
    const stale = emulatorToken(TEST_PROJECT_ID, { uid: bob.uid, nowMs: Date.now() - 7_200_000 });
    const res = await fetch(`${server.origin}/api/ws`, {
      headers: {
        upgrade: "websocket",
        connection: "upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
        "sec-websocket-protocol": `${WS_PROTOCOL}, ${stale}`,
      },
    });
    expect(res.status).toBe(401);
  });
});
