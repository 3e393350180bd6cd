/**
 * Who may see a preview host. The app's cookies and ID token never reach a preview (its own origin), so the
 * SPA asks the API for a one-minute ticket and frames `/__appbuilder/enter?ticket=…&next=/path` first: that
 * spends the ticket, sets the host-only HttpOnly cookie and redirects to `next`. Opened in a tab, the cookie is
 * SameSite=Lax (Secure on https). In the Preview screen's frame it is `SameSite=None; Secure; Partitioned`
 * wherever Secure can be set (https, and http on *.localhost): the app and its previews may be different
 * sites (a PREVIEW_DOMAIN outside the app's host; by default previews are beneath it, `*.app.localhost` locally),
 * and Chromium keeps no Lax cookie, nor an unpartitioned one, set in a cross-site frame. Partitioned keeps it
 * to frames under the app's own top-level site: another site framing the preview gets no cookie. Every request after that, WebSocket upgrades included, must carry the cookie, and its grant is checked
 * against the database again (`allowed`: one indexed read, no cache), so a removed member or a revoked link gets
 * 404 from the next request on, on every instance. The cookie never reaches the app in the sandbox.
 *
 * @example
 * const gate = createPreviewGate({ tickets, allowed: (g, id) => previewAllowed(ctx, g, id), secure: false, logger });
 * const entered = await gate.enter(req, sandboxId); // a redirect, "denied", or null (not the enter path)
 * if (!(await gate.admits(req, sandboxId))) return notFoundPage();
 */
import type { Logger } from "../lib/logger";
import { ENTER_PATH, COOKIE_TTL_S, PREVIEW_COOKIE, type PreviewGrant, type PreviewTickets } from "../lib/preview-grant";

export type PreviewGate = {
  /** At the enter path: the redirect with the cookie, or "denied"; elsewhere null. */
  enter(req: Request, sandboxId: string): Promise<Response | "denied" | null>;
  /** The request cookie's grant when it is for this host and still opens this sandbox; otherwise null. */
  admits(req: Request, sandboxId: string): Promise<PreviewGrant | null>;
  /** Removes the proxy's cookie from headers bound for the app. */
  stripCookie(headers: Headers): void;
};

const hostName = (req: Request) => (req.headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");

/** `next` as a path on this host only: anything else (another origin, `//evil`, `/\evil`) becomes `/`. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return /[\u0000-\u001f\\]/.test(next) ? "/" : next;
}

function cookieValue(req: Request): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === PREVIEW_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}

export function createPreviewGate(deps: {
  tickets: PreviewTickets;
  allowed: (grant: PreviewGrant, sandboxId: string) => Promise<boolean>;
  secure: boolean;
  logger: Logger;
}): PreviewGate {
  // A database failure denies: a preview is never served to someone who was not checked.
  const holds = (grant: PreviewGrant | null, req: Request, sandboxId: string) =>
    grant !== null &&
    grant.host === hostName(req) &&
    deps.allowed(grant, sandboxId).catch((error) => {
      deps.logger.warn("preview access not checked", { sandboxId, error: String(error) });
      return false;
    });

  return {
    async enter(req, sandboxId) {
      const url = new URL(req.url);
      if (url.pathname !== ENTER_PATH) return null;
      const ticket = url.searchParams.get("ticket");
      const grant = ticket ? await deps.tickets.openTicket(ticket) : null;
      if (!(await holds(grant, req, sandboxId))) return "denied";
      const host = hostName(req);
      const framed = ["iframe", "frame"].includes(req.headers.get("sec-fetch-dest") ?? "");
      const canSecure = deps.secure || host === "localhost" || host.endsWith(".localhost");
      const cookie = [
        `${PREVIEW_COOKIE}=${await deps.tickets.cookie(grant!)}`,
        "Path=/",
        `Max-Age=${COOKIE_TTL_S}`,
        "HttpOnly",
        ...(framed && canSecure ? ["SameSite=None", "Secure", "Partitioned"] : ["SameSite=Lax", ...(deps.secure ? ["Secure"] : [])]),
      ].join("; ");
      return new Response(null, {
        status: 302,
        // The ticket stays out of the next page's Referer and out of any cache.
        headers: { location: safeNext(url.searchParams.get("next")), "set-cookie": cookie, "cache-control": "no-store", "referrer-policy": "no-referrer" },
      });
    },

    async admits(req, sandboxId) {
      const value = cookieValue(req);
      const grant = value ? await deps.tickets.openCookie(value) : null;
      return grant && (await holds(grant, req, sandboxId)) ? grant : null;
    },

    stripCookie(headers) {
      const kept = (headers.get("cookie") ?? "").split(";").filter((part) => part.trim() && part.split("=")[0]!.trim() !== PREVIEW_COOKIE);
      if (kept.length) headers.set("cookie", kept.join(";").trim());
      else headers.delete("cookie");
    },
  };
}
