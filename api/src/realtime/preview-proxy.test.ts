/**
 * The preview proxy through a real Bun server: HTTP with the original Host, WebSocket with its
 * subprotocol (as Vite's HMR needs), a stopped sandbox, nothing listening, and no app headers on previews.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isPreviewStatusMessage, PREVIEW_STATUS_TYPE } from "@shared/events/preview-status";
import { createMemoryBus } from "../events/memory-bus";
import { serveHttp } from "../http-server";
import { silentLogger } from "../lib/logger";
import type { Sandbox, SandboxProvider } from "../sandbox/types";
import { openPreviewAccess } from "../test/preview-access";
import { createPreviewProxy } from "./preview-proxy";
import { createWsHub } from "./ws-hub";

let upstream: ReturnType<typeof Bun.serve>;
let front: ReturnType<typeof serveHttp>;
const seenHosts: string[] = [];
const seenCookies: (string | null)[] = [];
const access = openPreviewAccess();

beforeAll(() => {
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, server) {
      seenHosts.push(req.headers.get("host") ?? "");
      seenCookies.push(req.headers.get("cookie"));
      if (server.upgrade(req, { data: undefined, headers: { "Sec-WebSocket-Protocol": req.headers.get("sec-websocket-protocol") ?? "" } })) return;
      // Modules are JavaScript (never given the problem reporter); everything else is a page.
      const path = new URL(req.url).pathname;
      return new Response(`<h1>app at ${path}</h1>`, {
        headers: { "content-type": path.endsWith(".tsx") ? "text/javascript" : "text/html", "x-upstream": "yes" },
      });
    },
    websocket: { message: (ws, m) => void ws.send(`echo:${m}`) },
  });
  // A provider that knows one live sandbox whose port 5173 is the upstream server above.
  const sandbox = {
    id: "abcdefgh12345678",
    previewTarget: async (port: number) => (port === 5173 ? { hostname: "127.0.0.1", port: upstream.port } : { hostname: "127.0.0.1", port: 1 }),
  } as unknown as Sandbox;
  const provider = {
    kind: "local",
    connect: async (id: string) => (id === sandbox.id ? sandbox : null),
    create: async () => sandbox,
    shutdown: async () => {},
  } as SandboxProvider;
  const preview = createPreviewProxy({ provider, domain: "localhost", logger: silentLogger, ...access.proxy });
  const hub = createWsHub({
    sql: null as never,
    store: null as never,
    logger: silentLogger,
    events: createMemoryBus(),
    verifyToken: async () => {
      throw new Error("unused");
    },
  });
  front = serveHttp({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("the app", { headers: { "x-frame-options": "DENY" } }), hub, preview });
});
afterAll(() => {
  front.stop(true);
  upstream.stop(true);
});

/** A request with the host's access cookie (and another cookie of the app's own), as an entered browser sends. */
const viaHost = async (host: string, path = "/") =>
  fetch(`http://127.0.0.1:${front.port}${path}`, { headers: { host, cookie: `theme=dark; ${await access.cookie(host)}` } });

describe("preview proxy", () => {
  test("a preview host reaches the sandbox port with its own Host header and no app headers", async () => {
    const res = await viaHost(`5173-abcdefgh12345678.localhost:${front.port}`, "/src/App.tsx?v=1");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("<h1>app at /src/App.tsx</h1>");
    expect(res.headers.get("x-upstream")).toBe("yes");
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(seenHosts.at(-1)).toBe(`5173-abcdefgh12345678.localhost:${front.port}`);
    // The app's own cookies reach it; the proxy's access cookie never does.
    expect(seenCookies.at(-1)).toBe("theme=dark");
    // Other hosts are the app.
    expect(await (await viaHost(`localhost:${front.port}`)).text()).toBe("the app");
  });

  test("WebSockets are piped both ways with the subprotocol (Vite HMR)", async () => {
    const host = `5173-abcdefgh12345678.localhost:${front.port}`;
    const ws = new WebSocket(`ws://127.0.0.1:${front.port}/`, {
      headers: { host, cookie: await access.cookie(host) },
      protocols: ["vite-hmr"],
    } as never);
    const reply = await new Promise<string>((resolve, reject) => {
      ws.onopen = () => ws.send("ping");
      ws.onmessage = (e) => resolve(String(e.data));
      ws.onerror = () => reject(new Error("socket error"));
    });
    expect(reply).toBe("echo:ping");
    expect(ws.protocol).toBe("vite-hmr");
    ws.close();
  });

  test("a stopped sandbox and a port with nothing listening say so", async () => {
    const gone = await viaHost(`5173-zzzzzzzz99999999.localhost:${front.port}`);
    expect(gone.status).toBe(502);
    expect(await gone.text()).toContain("This preview has stopped");
    const idle = await viaHost(`3000-abcdefgh12345678.localhost:${front.port}`);
    expect(idle.status).toBe(502);
    expect(await idle.text()).toContain("Nothing is answering on port 3000 yet");
  });

  test("each error page tells the Preview screen framing it what happened", async () => {
    // Runs the page's script with a stand-in parent window, as a browser would inside the iframe.
    const posted = async (host: string) => {
      const html = await (await viaHost(host)).text();
      const script = html.match(/<script>([\s\S]*?)<\/script>/)?.[1];
      if (!script) throw new Error(`no script in ${html}`);
      const messages: Array<{ data: unknown; origin: string }> = [];
      const parent = { postMessage: (data: unknown, origin: string) => messages.push({ data, origin }) };
      // The "not answering" page also polls for the app (setInterval): noted, not run, so no timer outlives the test.
      const polls: unknown[] = [];
      new Function("parent", "window", "setInterval", script)(parent, {}, (fn: unknown) => polls.push(fn));
      return messages;
    };
    const gone = await posted(`5173-zzzzzzzz99999999.localhost:${front.port}`);
    expect(gone).toEqual([{ data: { type: PREVIEW_STATUS_TYPE, status: "stopped" }, origin: "*" }]);
    expect(isPreviewStatusMessage(gone[0]!.data)).toBe(true);
    const idle = await posted(`3000-abcdefgh12345678.localhost:${front.port}`);
    expect(idle).toEqual([{ data: { type: PREVIEW_STATUS_TYPE, status: "not-answering" }, origin: "*" }]);
    // The app's own pages never carry the message.
    expect(await (await viaHost(`5173-abcdefgh12345678.localhost:${front.port}`)).text()).not.toContain(PREVIEW_STATUS_TYPE);
  });
});
