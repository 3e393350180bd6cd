/**
 * Getting onto a preview host in tests, as a browser does: previews answer only requests with the host's
 * cookie (realtime/preview-gate.ts). `openPreviewAccess` is for a proxy built without a database (any signed
 * cookie passes); `enterPreview` does the real handshake against a test app (the ticket route as a member, then
 * `/__appbuilder/enter` on the preview host) and returns the cookie for the requests that follow.
 *
 * @example
 * const access = openPreviewAccess();
 * const proxy = createPreviewProxy({ provider, domain: "localhost", logger, ...access.proxy });
 * fetch(url, { headers: { host, cookie: await access.cookie(host) } });
 */
import { createPreviewTickets } from "../auth/preview-tickets";
import { PREVIEW_COOKIE, type PreviewGrant } from "../lib/preview-grant";
import type { TestUser } from "./test-app";

const hostName = (host: string) => host.toLowerCase().replace(/:\d+$/, "");

/** A proxy's tickets and an `allowed` that admits every signed grant; `cookie(host)` is a member's cookie for it. */
export function openPreviewAccess() {
  const tickets = createPreviewTickets("test-preview-key");
  return {
    proxy: { tickets, allowed: async (_grant: PreviewGrant, _sandboxId: string) => true },
    /** `Cookie` header value for requests to `host` (the port is ignored, as browsers do for cookies). */
    cookie: async (host: string) => `${PREVIEW_COOKIE}=${await tickets.cookie({ projectId: crypto.randomUUID(), host: hostName(host), userId: "test-user" })}`,
  };
}

/** The `Set-Cookie` of an enter answer as a `Cookie` header value (name=value), or null when none was set. */
export function cookieFrom(res: Response): string | null {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${PREVIEW_COOKIE}=`));
  return set ? set.split(";")[0]! : null;
}

/**
 * Spends an enter URL (a ticket's, or where a share link redirects) against the server at `origin` with the
 * preview's Host header; the answer is not followed, so its cookie can be read.
 */
export async function spendEnterUrl(origin: string, enterUrl: string, headers: Record<string, string> = {}): Promise<Response> {
  const u = new URL(enterUrl);
  return fetch(`${origin}${u.pathname}${u.search}`, { headers: { host: u.host, ...headers }, redirect: "manual" });
}

/**
 * The handshake a member's browser makes: POST /api/sandbox/{id}/preview-ticket, then the enter URL on the
 * preview host. Returns the `Cookie` header value, or null when the member got no ticket or the host refused it.
 */
export async function enterPreview(origin: string, user: TestUser | { token: string }, projectId: string): Promise<string | null> {
  const path = `/api/sandbox/${projectId}/preview-ticket`;
  const res =
    "request" in user
      ? await user.request("POST", path)
      : await fetch(`${origin}${path}`, { method: "POST", headers: { authorization: `Bearer ${user.token}` } });
  if (res.status !== 200) return null;
  const { enterUrl } = (await res.json()) as { enterUrl: string | null };
  if (!enterUrl) return null;
  return cookieFrom(await spendEnterUrl(origin, `${enterUrl}&next=%2F`));
}
