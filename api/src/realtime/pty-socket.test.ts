/**
 * The interactive terminal's WebSocket through a real server and a real local sandbox: an interactive
 * python3, Ctrl+C as SIGINT, resize, a full-screen program (vi), the 64 KB message limit, the idle close,
 * what survives a closed page, token refresh, and the owner check (404 before the upgrade).
 */
import { grantedAccess } from "../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { MAX_PTY_MESSAGE_BYTES, MAX_TERMINALS_PER_PROJECT, PTY_CLOSE, PTY_INPUT, PTY_PROTOCOL, encodePtyFrame } from "@shared/events/pty-frames";
import { silentLogger } from "../lib/logger";
import { createTerminalSessions } from "../services/sandboxes/terminals";
import { appServer } from "../test/app-server";
import { emulatorToken } from "../test/emulator-tokens";
import { localSuiteGate } from "../test/local-sandbox-support";
import { connectPty } from "../test/pty-client";
import { TEST_PROJECT_ID, testApp, type TestUser } from "../test/test-app";
import { createPtySocket } from "./pty-socket";
import { TOKEN_EXPIRED_CLOSE } from "./ws-hub";

const PROMPT = /\$ $/;
const IDLE_MS = 1500;

if (await localSuiteGate("terminal socket", { sameOnEveryDatabase: true })) {
  let t: Awaited<ReturnType<typeof testApp>>;
  const servers: { base: string; stop(): void }[] = [];

  /** A server whose terminals close after `idleMs` without input or output. */
  const start = (idleMs: number) => {
    const terminals = createTerminalSessions({ sandboxes: t.deps.sandboxes, logger: silentLogger, idleMs });
    const pty = createPtySocket({ ...t.deps, terminals });
    const server = appServer(t, { pty });
    const entry = { base: server.ws, http: server.origin, stop: () => (pty.close(), terminals.closeAll(), server.stop()) };
    servers.push(entry);
    return entry;
  };

  let main: ReturnType<typeof start>;
  let alice: TestUser;
  let projectId: string;

  beforeAll(async () => {
    t = await testApp();
    main = start(60_000);
    alice = t.user("alice");
    projectId = ((await (await alice.request("POST", "/api/projects", { name: "Pty" })).json()) as { id: string }).id;
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) s.stop();
    await t?.deps.sandboxes.shutdown();
  }, 30_000);

  describe("the interactive terminal over /api/sandbox/{id}/pty", () => {
    test("python3 runs interactively: print(6*7) answers 42; exit ends the session with its status", async () => {
      const term = await connectPty(main.base, projectId, alice.token);
      await term.waitFor(PROMPT, 30_000);
      term.type("python3\r");
      await term.waitFor(/>>> $/);
      term.type("print(6*7)\r");
      await term.waitFor(/\r\n42\r\n>>> $/);
      term.type("exit()\r");
      await term.waitFor(PROMPT);
      term.type("exit 5\r");
      expect((await term.closed).code).toBe(1000);
      expect(term.exitCode()).toBe(5);
    }, 60_000);

    test("Ctrl+C (0x03) stops `sleep 100`: the prompt returns quickly and the process is gone", async () => {
      const term = await connectPty(main.base, projectId, alice.token);
      await term.waitFor(PROMPT, 30_000);
      term.type("sleep 100\r");
      await term.waitFor(/sleep 100\r\n/);
      await Bun.sleep(300);
      term.clear();
      const sent = Date.now();
      term.type("\x03");
      await term.waitFor(PROMPT, 3_000);
      expect(Date.now() - sent).toBeLessThan(3_000);
      term.type("echo status=$?; pgrep -x sleep || echo no-sleep-left\r");
      await term.waitFor(/status=130\r\nno-sleep-left\r\n/);
      term.ws.close();
    }, 60_000);

    test("a resize reaches programs: `stty size` follows it, and TERM says 256 colours", async () => {
      const term = await connectPty(main.base, projectId, alice.token, { cols: 100, rows: 30 });
      await term.waitFor(PROMPT, 30_000);
      term.type("stty size; echo $TERM\r");
      await term.waitFor(/\r30 100\r\nxterm-256color\r\n/);
      term.resize(140, 50);
      term.type("stty size\r");
      await term.waitFor(/\r50 140\r\n/);
      term.ws.close();
    }, 60_000);

    // vi is vim on most hosts (the local sandbox sees the host's /usr); a host without it has nothing to run.
    test.skipIf(!existsSync("/usr/bin/vi"))(
      "a full-screen program (vi) draws at the resized size on the alternate screen; :q returns to the prompt",
      async () => {
        const term = await connectPty(main.base, projectId, alice.token, { cols: 80, rows: 24 });
        await term.waitFor(PROMPT, 30_000);
        term.resize(120, 40);
        term.clear();
        term.type("vi\r");
        // The alternate screen, then cursor positioning on row 40, the last row of the resized terminal.
        await term.waitFor(/\x1b\[\?1049h[\s\S]*\x1b\[40;\d+H/);
        expect(term.text()).not.toMatch(/\x1b\[(4[1-9]|[5-9]\d|\d{3,});\d+H/);
        term.type(":echo &lines &columns\r");
        await term.waitFor(/40 120/);
        term.clear();
        term.type(":q\r");
        // Back off the alternate screen to the shell, which takes the next command.
        await term.waitFor(/\x1b\[\?1049l[\s\S]*\$ $/);
        term.type("echo back-$((1+1))\r");
        await term.waitFor(/\rback-2\r\n/);
        term.ws.close();
      },
      60_000,
    );

    test("a message over 64 KB is refused (close 1009); one at the limit is fine", async () => {
      const term = await connectPty(main.base, projectId, alice.token);
      await term.waitFor(PROMPT, 30_000);
      // At the limit: a frame of 64 KB is input like any other. `head` reads it whole, in raw mode without echo:
      // fed to bash's line editor instead, 64 K characters are redrawn one by one (minutes on a loaded machine).
      // The markers are computed by the shell, so the echo of the typed command cannot match them.
      const atLimit = encodePtyFrame(PTY_INPUT, new Uint8Array(MAX_PTY_MESSAGE_BYTES - 1).fill(0x61));
      try {
        term.type(`stty raw -echo; echo ready-$((6*7)); head -c ${MAX_PTY_MESSAGE_BYTES - 1} >/dev/null; stty sane; echo still-$((1+1))\r`);
        await term.waitFor(/ready-42/, 30_000);
        term.ws.send(atLimit);
        await term.waitFor(/still-2/, 30_000);
        term.ws.send(encodePtyFrame(PTY_INPUT, new Uint8Array(MAX_PTY_MESSAGE_BYTES)));
        expect((await term.closed).code).toBe(1009);
      } finally {
        // A failure here must not leave a terminal open to count against the next test's limit.
        term.ws.close();
      }
    }, 120_000);

    test("closing the page ends the foreground job; what was started with & or nohup keeps running", async () => {
      const sandbox = await t.deps.sandboxes.ensure(grantedAccess(alice.uid, projectId));
      const term = await connectPty(main.base, projectId, alice.token);
      await term.waitFor(PROMPT, 30_000);
      term.type("rm -f page-bg.txt page-nohup.txt page-fg.txt; (sleep 2; echo alive > page-bg.txt) &\r");
      await term.waitFor(/\[1\] \d+/);
      term.type("nohup sh -c 'sleep 2; echo alive > page-nohup.txt' > /dev/null 2>&1 &\r");
      await term.waitFor(/\[2\] \d+/);
      term.type("sh -c 'sleep 2; echo ran > page-fg.txt'\r");
      await Bun.sleep(300);
      term.ws.close();
      await Bun.sleep(3_500);
      expect((await sandbox.run("cat page-bg.txt page-nohup.txt; test -e page-fg.txt && echo the-foreground-job-survived")).stdout).toBe("alive\nalive\n");
    }, 60_000);

    test(`a session with neither input nor output for the idle time is closed (${PTY_CLOSE.idle})`, async () => {
      const quick = start(IDLE_MS);
      const term = await connectPty(quick.base, projectId, alice.token);
      await term.waitFor(PROMPT, 30_000);
      // Activity postpones it: output every 0.5 s for 2.5 s keeps the session open past the idle time.
      term.type("for i in 1 2 3 4 5; do sleep 0.5; echo tick$i; done\r");
      await term.waitFor(/tick5\r\n/, 10_000);
      const quietSince = Date.now();
      const closed = await term.closed;
      expect(closed.code).toBe(PTY_CLOSE.idle);
      expect(Date.now() - quietSince).toBeGreaterThanOrEqual(IDLE_MS - 200);
    }, 60_000);

    test(`at most ${MAX_TERMINALS_PER_PROJECT} terminals per project: one more is closed (${PTY_CLOSE.tooMany}); closing one makes room`, async () => {
      const open = await Promise.all(Array.from({ length: MAX_TERMINALS_PER_PROJECT }, () => connectPty(main.base, projectId, alice.token)));
      await Promise.all(open.map((term) => term.waitFor(PROMPT, 30_000)));
      const extra = await connectPty(main.base, projectId, alice.token);
      expect((await extra.closed).code).toBe(PTY_CLOSE.tooMany);
      open[0]!.ws.close();
      await open[0]!.closed;
      await Bun.sleep(100);
      const again = await connectPty(main.base, projectId, alice.token);
      await again.waitFor(PROMPT, 30_000);
      for (const term of [...open, again]) term.ws.close();
    }, 60_000);

    test("another user's project, or no project, is 404 before the upgrade; a bad token is 401", async () => {
      const mallory = t.user("mallory");
      const upgrade = (path: string, token: string) =>
        fetch(`${main.http}${path}`, {
          headers: {
            upgrade: "websocket",
            connection: "Upgrade",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
            "sec-websocket-version": "13",
            "sec-websocket-protocol": `${PTY_PROTOCOL}, ${token}`,
          },
        });
      for (const path of [`/api/sandbox/${projectId}/pty`, `/api/sandbox/${crypto.randomUUID()}/pty`, "/api/sandbox/not-a-uuid/pty"]) {
        const res = await upgrade(path, mallory.token);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect((await res.json()).code).toBe("not_found");
      }
      expect((await upgrade(`/api/sandbox/${projectId}/pty`, "bad.token.here")).status).toBe(401);
      await expect(connectPty(main.base, projectId, mallory.token)).rejects.toThrow("did not open");
    }, 30_000);

    test("the socket closes when its token expires, unless the browser sends a fresh one first", async () => {
      const short = () => emulatorToken(TEST_PROJECT_ID, { uid: alice.uid, email: "alice@example.com", expiresInSec: 2 });
      const lapsing = await connectPty(main.base, projectId, short());
      const refreshed = await connectPty(main.base, projectId, short());
      refreshed.sendToken(alice.token);
      expect((await lapsing.closed).code).toBe(TOKEN_EXPIRED_CLOSE);
      await Bun.sleep(1_500);
      refreshed.type("echo after-expiry\r");
      await refreshed.waitFor(/after-expiry\r\n/);
      // Someone else's token does not extend a socket: it closes it.
      refreshed.sendToken(t.user("eve").token);
      expect((await refreshed.closed).code).toBe(TOKEN_EXPIRED_CLOSE);
    }, 60_000);
  });
}
