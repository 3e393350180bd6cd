/**
 * A testApp behind the real HTTP server (http-server.ts) with the file-event hub and the preview proxy, put
 * together as server.ts does, on a free port of 127.0.0.1. For tests that need real sockets: WebSockets,
 * preview hosts, the terminal.
 *
 * @example
 * const t = await testApp();
 * const front = appServer(t);
 * new WebSocket(`${front.ws}/api/ws`, [WS_PROTOCOL, alice.token]);
 * front.stop();
 */
import { serveHttp } from "../http-server";
import { createPreviewProxy } from "../realtime/preview-proxy";
import type { PtySocket } from "../realtime/pty-socket";
import { createWsHub } from "../realtime/ws-hub";
import { previewAllowed } from "../services/access";
import { openPreviewAccess } from "./preview-access";
import type { SandboxProvider } from "../sandbox/types";
import type { testApp } from "./test-app";

/** A provider with no sandboxes, for servers whose tests never open a preview. */
const noSandboxes: SandboxProvider = {
  kind: "local",
  create: async () => Promise.reject(new Error("unused")),
  connect: async () => null,
  shutdown: async () => {},
};

export type AppServer = ReturnType<typeof appServer>;

export function appServer(
  t: Awaited<ReturnType<typeof testApp>>,
  options: {
    /** Whose sandboxes the preview proxy reaches (the one the app was built with, for preview tests). */
    provider?: SandboxProvider;
    /** The terminal socket; the caller closes it (and its sessions) before `stop`. */
    pty?: PtySocket;
    /**
     * "open": any signed cookie opens any preview, and `preview()` sends one (for sandboxes made straight from a
     * provider, which no project names); default: the real per-request access check.
     */
    previewAccess?: "checked" | "open";
  } = {},
) {
  const open = options.previewAccess === "open" ? openPreviewAccess() : null;
  const hub = createWsHub({ ...t.deps, admit: t.deps.userGate?.admit });
  const domain = t.deps.config.preview.domain;
  const preview = createPreviewProxy({
    provider: options.provider ?? noSandboxes,
    domain,
    // The app's own logger (silent unless the test hands one in): tests that read every line see the proxy's too.
    logger: t.deps.logger,
    events: t.deps.events,
    ...(open?.proxy ?? { tickets: t.deps.previewTickets, allowed: (grant, sandboxId) => previewAllowed(t.deps, grant, sandboxId) }),
  });
  const server = serveHttp({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch, hub, preview, pty: options.pty });
  return {
    t,
    /** The server and its hub, for a test that shuts them down as shutdown.ts does. */
    server,
    hub,
    /** `http://127.0.0.1:<port>` */
    origin: `http://127.0.0.1:${server.port}`,
    /** `ws://127.0.0.1:<port>` */
    ws: `ws://127.0.0.1:${server.port}`,
    /**
     * A request to `<port>-<sandboxId>.<preview domain>` on the app's port, as a browser sends one: with `cookie`
     * (test/preview-access.ts `enterPreview`), or with "open" access a cookie of its own.
     */
    preview: async (sandboxId: string, port: number, cookie?: string | null) => {
      const host = `${port}-${sandboxId}.${domain}:${server.port}`;
      const sent = cookie ?? (open ? await open.cookie(host) : null);
      return fetch(`http://127.0.0.1:${server.port}/`, { headers: { host, ...(sent ? { cookie: sent } : {}) } });
    },
    stop: () => (hub.close(), preview.close(), server.stop(true)),
  };
}
