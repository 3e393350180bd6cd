/**
 * Serves previews: a request whose Host is `<port>-<sandboxId>.<domain>` is proxied to that port inside
 * the sandbox, HTTP and WebSocket alike (Vite's hot reload is a WebSocket with subprotocol `vite-hmr`).
 * A preview is its own origin, so it cannot read the app's storage; the app's routes are never served here.
 */
import { PREVIEW_STATUS_TYPE, type PreviewStatus, type PreviewStatusMessage } from "@shared/events/preview-status";
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import type { Logger } from "../lib/logger";
import { NothingListeningError, type SandboxProvider } from "../sandbox/types";
import { parsePreviewHost } from "./preview-host";

export type PreviewSocketData = {
  kind: "preview";
  url: string;
  host: string;
  protocols: string[];
  upstream?: WebSocket;
  pending: (string | Buffer)[];
};

export type PreviewProxy = {
  /** null when the request is not for a preview host; otherwise the response (undefined when upgraded). */
  handle(req: Request, server: Server<unknown>): Promise<Response | undefined> | null;
  handler: WebSocketHandler<PreviewSocketData>;
};

// Headers that describe one hop, not the message; never forwarded.
const HOP_HEADERS = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"];

/**
 * The proxy's own error page. Its script tells the Preview screen framing it what happened (the message of
 * @shared/events/preview-status); it names no secret, so any parent may read it.
 */
const page = (previewStatus: PreviewStatus, title: string, text: string) =>
  new Response(
    `<!doctype html><meta charset="utf-8"><title>${title}</title><script>parent!==window&&parent.postMessage(${JSON.stringify({ type: PREVIEW_STATUS_TYPE, status: previewStatus } satisfies PreviewStatusMessage)},"*")</script><body style="font-family:system-ui;background:#0b0b0f;color:#e5e7eb;display:grid;place-items:center;height:100vh;margin:0"><div style="max-width:32rem;text-align:center"><h1 style="font-size:1.25rem">${title}</h1><p style="color:#9ca3af">${text}</p></div>`,
    { status: 502, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
  );

/**
 * A preview is someone's code on a host under the app's domain, so a `Set-Cookie` with a `Domain` attribute
 * would land on the app and every other preview alike (the domain and its previews are one site): cookie
 * tossing, session fixation. Only host-only cookies (no Domain, or exactly the preview's own host) pass.
 */
export function keepCookiesOnHost(headers: Headers, hostHeader: string): void {
  const cookies = headers.getSetCookie();
  if (cookies.length === 0) return;
  const host = hostHeader.toLowerCase().replace(/:\d+$/, "");
  headers.delete("set-cookie");
  for (const cookie of cookies) {
    const domains = cookie
      .split(";")
      .slice(1)
      .map((attr) => attr.trim().split("="))
      .filter(([name]) => name!.trim().toLowerCase() === "domain")
      .map(([, value = ""]) => value.trim().toLowerCase().replace(/^\./, ""));
    if (domains.every((d) => d === host)) headers.append("set-cookie", cookie);
  }
}

const nothingAnswering = (port: number) =>
  page(
    "not-answering",
    `Nothing is answering on port ${port} yet`,
    "The app in the sandbox may still be starting. Refresh in a moment; if it stays like this, run the workflow again from the Preview toolbar.",
  );

export function createPreviewProxy(deps: { provider: SandboxProvider; domain: string; logger: Logger }): PreviewProxy {
  async function target(sandboxId: string, port: number) {
    const sandbox = await deps.provider.connect(sandboxId);
    if (!sandbox) return null;
    return sandbox.previewTarget(port);
  }

  async function handle(req: Request, server: Server<unknown>, port: number, sandboxId: string): Promise<Response | undefined> {
    const t = await target(sandboxId, port).catch((error) => {
      if (error instanceof NothingListeningError) return "not listening" as const;
      deps.logger.warn("preview target failed", { sandboxId, port, error: String(error) });
      return null;
    });
    if (t === "not listening") return nothingAnswering(port);
    if (!t) {
      return page("stopped", "This preview has stopped", "Its sandbox is no longer running. Open the project's Preview and choose Recreate sandbox.");
    }
    const url = new URL(req.url);
    const upstream = `${t.hostname}:${t.port}${url.pathname}${url.search}`;
    const host = req.headers.get("host") ?? "";

    if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const protocols = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim()).filter(Boolean);
      const data: PreviewSocketData = { kind: "preview", url: `ws://${upstream}`, host, protocols, pending: [] };
      const headers = protocols.length ? { "Sec-WebSocket-Protocol": protocols[0]! } : undefined;
      return server.upgrade(req, { data, headers }) ? undefined : new Response("WebSocket upgrade failed", { status: 400 });
    }

    const headers = new Headers(req.headers);
    for (const h of HOP_HEADERS) headers.delete(h);
    // Bun's fetch decompresses bodies; ask for identity so the headers we pass back stay true.
    headers.delete("accept-encoding");
    try {
      const res = await fetch(`http://${upstream}`, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
        redirect: "manual",
      });
      const out = new Headers(res.headers);
      for (const h of HOP_HEADERS) out.delete(h);
      out.delete("content-encoding");
      out.delete("content-length");
      keepCookiesOnHost(out, host);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
    } catch {
      return nothingAnswering(port);
    }
  }

  return {
    handle(req, server) {
      const parsed = parsePreviewHost(req.headers.get("host"), deps.domain);
      return parsed ? handle(req, server, parsed.port, parsed.sandboxId) : null;
    },
    handler: {
      open(ws: ServerWebSocket<PreviewSocketData>) {
        const upstream = new WebSocket(ws.data.url, { headers: { host: ws.data.host }, protocols: ws.data.protocols } as never);
        upstream.binaryType = "arraybuffer";
        ws.data.upstream = upstream;
        upstream.onopen = () => {
          for (const m of ws.data.pending) upstream.send(m);
          ws.data.pending = [];
        };
        upstream.onmessage = (e) => ws.send(typeof e.data === "string" ? e.data : new Uint8Array(e.data as ArrayBuffer));
        upstream.onclose = (e) => ws.close(e.code === 1005 || e.code === 1006 ? 1011 : e.code, e.reason);
        upstream.onerror = () => ws.close(1011, "preview upstream error");
      },
      message(ws, message) {
        const upstream = ws.data.upstream;
        if (upstream?.readyState === WebSocket.OPEN) upstream.send(message);
        else ws.data.pending.push(message);
      },
      close(ws) {
        ws.data.upstream?.close();
      },
    },
  };
}
