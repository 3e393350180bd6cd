/**
 * Attack replayed: code running in a sandbox answers its public preview with `Set-Cookie: …; Domain=<the
 * app's domain>`. Previews live on `<port>-<id>.<domain>`, same-site with the app, so the browser would
 * store the cookie for the app and for every other user's preview (cookie tossing, session fixation).
 * Safe outcome: the preview proxy drops every Set-Cookie scoped beyond the preview's own host, and keeps
 * host-only cookies so apps with their own sign-in still work.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createMemoryBus } from "../api/src/events/memory-bus";
import { serveHttp } from "../api/src/http-server";
import { silentLogger } from "../api/src/lib/logger";
import { createPreviewProxy } from "../api/src/realtime/preview-proxy";
import { openPreviewAccess } from "../api/src/test/preview-access";
import { createWsHub } from "../api/src/realtime/ws-hub";
import type { Sandbox, SandboxProvider } from "../api/src/sandbox/types";

const DOMAIN = "builder.example.test";
const SANDBOX = "abcdefgh12345678";
let upstream: ReturnType<typeof Bun.serve>;
const access = openPreviewAccess();
let front: ReturnType<typeof serveHttp>;

beforeAll(() => {
  // The hostile app inside the sandbox: one response, many cookies.
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      const headers = new Headers({ "content-type": "text/plain" });
      for (const c of [
        `toss=1; Domain=${DOMAIN}; Path=/`,
        `toss2=1; Path=/; domain=.${DOMAIN.toUpperCase()}`,
        "toss3=1; Domain=example.test",
        `other=1; Domain=5174-zzzzzzzz12345678.${DOMAIN}`,
        "own=1; Path=/; HttpOnly",
        `own2=1; Domain=5173-${SANDBOX}.${DOMAIN}`,
      ])
        headers.append("set-cookie", c);
      return new Response("hello", { headers });
    },
  });
  const sandbox = { id: SANDBOX, previewTarget: async () => ({ hostname: "127.0.0.1", port: upstream.port }) } as unknown as Sandbox;
  const provider = {
    kind: "local",
    connect: async (id: string) => (id === SANDBOX ? sandbox : null),
    create: async () => sandbox,
    shutdown: async () => {},
  } as SandboxProvider;
  const preview = createPreviewProxy({ provider, domain: DOMAIN, logger: silentLogger, ...access.proxy });
  const hub = createWsHub({
    sql: null as never,
    store: null as never,
    logger: silentLogger,
    events: createMemoryBus(),
    verifyToken: async () => Promise.reject(new Error("unused")),
  });
  front = serveHttp({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("the app"), hub, preview });
});
afterAll(() => {
  front.stop(true);
  upstream.stop(true);
});

describe("preview cookies", () => {
  test("Set-Cookie for the app's domain (or any wider scope) is stripped; host-only cookies pass", async () => {
    // The upstream really sends all six: the attack reaches the proxy.
    expect((await fetch(`http://127.0.0.1:${upstream.port}/`)).headers.getSetCookie()).toHaveLength(6);
    const host = `5173-${SANDBOX}.${DOMAIN}:443`;
    const res = await fetch(`http://127.0.0.1:${front.port}/`, { headers: { host, cookie: await access.cookie(host) } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
    expect(res.headers.getSetCookie()).toEqual(["own=1; Path=/; HttpOnly", `own2=1; Domain=5173-${SANDBOX}.${DOMAIN}`]);
  });
});
