/**
 * Serves previews: a request whose Host is `<port>-<sandboxId>.<domain>` is proxied to that port inside
 * the sandbox, HTTP and WebSocket alike (Vite's hot reload is a WebSocket with subprotocol `vite-hmr`).
 * A preview is its own origin, so it cannot read the app's storage; the app's routes are never served here.
 * Nobody is served without the host's cookie (see preview-gate.ts): a signed-in member's or a share link's,
 * checked against the database on every request, WebSocket upgrades included. Without it, or once the grant no
 * longer holds (member removed, link revoked or expired, project deleted, sandbox replaced), the answer is the
 * same 404 page as for a preview that does not exist.
 * Pages the app serves get the problem reporter and the element picker (preview-reporter/), whose reports the proxy answers under
 * `/__appbuilder/`; Vite's compile errors are also read off the HMR socket on their way to the page.
 */
import { PREVIEW_STATUS_TYPE, type PreviewStatus, type PreviewStatusMessage } from "@shared/events/preview-status";
import type { Server, WebSocketHandler } from "bun";
import { forwardHttp } from "../lib/forward-http";
import { type BridgedSocketData, bridgeHandler, requestedProtocols, upgradeToUpstream } from "../lib/forward-socket";
import type { Logger } from "../lib/logger";
import { NothingListeningError, type SandboxProvider } from "../sandbox/types";
import { PREVIEW_COOKIE, type PreviewGrant, type PreviewTickets } from "../lib/preview-grant";
import { createPreviewGate } from "./preview-gate";
import { parsePreviewHost } from "./preview-host";
import { injectReporterBytes, injectReporterStream } from "./preview-reporter/inject";
import { createReportsEndpoint, type PreviewProblemSink } from "./preview-reporter/reports-endpoint";
import type { AppOrigins } from "./preview-reporter/served-script";

export type PreviewSocketData = BridgedSocketData & { kind: "preview"; sandboxId: string };

export type PreviewProxy = {
  /** null when the request is not for a preview host; otherwise the response (undefined when upgraded). */
  handle(req: Request, server: Server<unknown>): Promise<Response | undefined> | null;
  handler: WebSocketHandler<PreviewSocketData>;
};

/**
 * The proxy's own error page. Its script tells the Preview screen framing it what happened (the message of
 * @shared/events/preview-status); it names no secret, so any parent may read it.
 */
const page = (previewStatus: PreviewStatus, title: string, text: string, status = 502, script = "") =>
  new Response(
    `<!doctype html><meta charset="utf-8"><title>${title}</title><script>parent!==window&&parent.postMessage(${JSON.stringify({ type: PREVIEW_STATUS_TYPE, status: previewStatus } satisfies PreviewStatusMessage)},"*")${script}</script><body style="font-family:system-ui;background:#0b0b0f;color:#e5e7eb;display:grid;place-items:center;height:100vh;margin:0"><div style="max-width:32rem;text-align:center"><h1 style="font-size:1.25rem">${title}</h1><p style="color:#9ca3af">${text}</p></div>`,
    { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", [OWN_PAGE_HEADER]: previewStatus } },
  );

/** Marks the proxy's own pages, so the waiting page can tell them from the app's answer. */
const OWN_PAGE_HEADER = "x-appbuilder-preview";

/**
 * The waiting page asks again every second and loads the app as soon as it answers (after a first build, a
 * restore, an undo, a restart or a crash), so a preview never waits on the reader to press refresh.
 */
const RELOAD_WHEN_ANSWERING = `;(function(){var t=setInterval(function(){fetch(location.href,{cache:"no-store",credentials:"same-origin"}).then(function(r){if(!r.headers.get("${OWN_PAGE_HEADER}")){clearInterval(t);location.reload()}},function(){})},1000)})()`;

const nothingAnswering = (port: number) =>
  page(
    "not-answering",
    `Nothing is answering on port ${port} yet`,
    "The app in the sandbox is starting or restarting. This page loads it by itself as soon as it answers; if it stays like this, run the workflow again from the Preview toolbar.",
    502,
    RELOAD_WHEN_ANSWERING,
  );

const noSuchPreview = () => page("stopped", "There is no such preview", "Its project was deleted, or its sandbox was replaced by a new one.", 404);

/** Pages larger than this, with a known length, are passed on without the reporter rather than held. */
const MAX_INJECT_BYTES = 5 * 1024 * 1024;
// Vite's HMR message for a compile error; checked as a prefix so other messages are never parsed.
const VITE_ERROR_PREFIX = '{"type":"error"';

/**
 * Whether a response is a page the reporter belongs in: HTML with a body, fetched as a document (a
 * `fetch()` of HTML by the app's own code says `sec-fetch-dest: empty` and is left exactly as served).
 */
function isPage(req: Request, res: Response): boolean {
  if (req.method !== "GET" || !res.body || res.status === 204 || res.status === 304) return false;
  if (!/^\s*text\/html\b/i.test(res.headers.get("content-type") ?? "")) return false;
  const dest = req.headers.get("sec-fetch-dest");
  return dest === null || dest === "document" || dest === "iframe" || dest === "frame";
}

export function createPreviewProxy(deps: {
  provider: SandboxProvider;
  domain: string;
  logger: Logger;
  /** Opens the host cookies (and the tickets spent at `/__appbuilder/enter`). */
  tickets: PreviewTickets;
  /**
   * Whether the grant still opens this sandbox (services/access.ts `previewAllowed`): asked on every request,
   * so a removed member, a revoked link or a deleted project answers 404 at once on every instance.
   */
  allowed: (grant: PreviewGrant, sandboxId: string) => Promise<boolean>;
  /** Previews are served over https (the cookie is then `Secure`). */
  secure?: boolean;
  problems?: PreviewProblemSink | null;
  /** Where the app is served: the pages' element picker obeys and answers only frames' parents from there. */
  appOrigins?: AppOrigins;
}): PreviewProxy {
  const reports = createReportsEndpoint({ sink: deps.problems ?? null, logger: deps.logger, appOrigins: deps.appOrigins });
  const gate = createPreviewGate({ tickets: deps.tickets, allowed: deps.allowed, secure: deps.secure ?? false, logger: deps.logger });

  async function target(sandboxId: string, port: number) {
    const sandbox = await deps.provider.connect(sandboxId);
    if (!sandbox) return null;
    return sandbox.previewTarget(port);
  }

  async function handle(req: Request, server: Server<unknown>, port: number, sandboxId: string): Promise<Response | undefined> {
    const host = req.headers.get("host") ?? "";
    const entered = await gate.enter(req, sandboxId);
    if (entered === "denied") return noSuchPreview();
    if (entered) return entered;
    // Before the sandbox is even looked for: a stranger learns nothing, not even by timing, and costs one read.
    if (!(await gate.admits(req, sandboxId))) return noSuchPreview();
    const t = await target(sandboxId, port).catch((error) => {
      if (error instanceof NothingListeningError) return "not listening" as const;
      deps.logger.warn("preview target failed", { sandboxId, port, error: String(error) });
      return null;
    });
    if (new URL(req.url).pathname.startsWith("/__appbuilder/")) {
      const own = await reports.handle(req, sandboxId, host);
      if (own) return own;
    }
    if (t === "not listening") return nothingAnswering(port);
    if (!t) return page("stopped", "This preview has stopped", "Its sandbox is no longer running. Open the project's Preview and choose Recreate sandbox.");
    const url = new URL(req.url);
    const upstream = `${t.hostname}:${t.port}${url.pathname}${url.search}`;

    if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const data: PreviewSocketData = { kind: "preview", sandboxId, url: `ws://${upstream}`, host, protocols: requestedProtocols(req), pending: [] };
      return upgradeToUpstream(req, server, data);
    }

    try {
      const { res, headers: out } = await forwardHttp(req, upstream, {
        host,
        editRequest: (h) => gate.stripCookie(h),
        // Only the proxy's own pages say they are; the length is set again if the reporter goes in.
        dropResponse: [OWN_PAGE_HEADER, "content-length"],
        reservedCookie: PREVIEW_COOKIE,
      });
      if (isPage(req, res)) return await withReporter(res, out);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
    } catch {
      return nothingAnswering(port);
    }
  }

  /** The page with the reporter in its head: its length set right when known, streamed on otherwise. */
  function noteViteError(sandboxId: string, text: string) {
    if (!deps.problems) return;
    try {
      const payload = JSON.parse(text) as { type?: string; err?: unknown };
      if (payload.type === "error") {
        void deps.problems.viteError(sandboxId, payload.err).catch((error) => deps.logger.warn("vite error not recorded", { sandboxId, error: String(error) }));
      }
    } catch {
      // Not JSON after all: only the page reads it.
    }
  }

  async function withReporter(res: Response, out: Headers): Promise<Response> {
    const policies = res.headers.get("content-security-policy") ? [res.headers.get("content-security-policy")!] : [];
    const init = { status: res.status, statusText: res.statusText, headers: out };
    const length = Number(res.headers.get("content-length") ?? NaN);
    if (Number.isNaN(length)) return new Response(injectReporterStream(res.body!, policies), init);
    if (length > MAX_INJECT_BYTES) return new Response(res.body, init);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const page = injectReporterBytes(bytes, policies) ?? bytes;
    out.set("content-length", String(page.byteLength));
    return new Response(page as Uint8Array<ArrayBuffer>, init);
  }

  return {
    handle(req, server) {
      const parsed = parsePreviewHost(req.headers.get("host"), deps.domain);
      return parsed ? handle(req, server, parsed.port, parsed.sandboxId) : null;
    },
    handler: bridgeHandler<PreviewSocketData>({
      errorReason: "preview upstream error",
      onUpstreamText: (ws, text) => {
        if (text.startsWith(VITE_ERROR_PREFIX)) noteViteError(ws.data.sandboxId, text);
      },
    }),
  };
}
