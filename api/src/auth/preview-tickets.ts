/**
 * Preview tickets and cookies (lib/preview-grant.ts) as HS256 JWTs under one server key, which every
 * instance sharing the database reads from `app_secrets` (db/secrets.ts), as the image URL key is.
 * A ticket and a cookie differ in `typ`, so neither passes for the other.
 *
 * @example
 * const tickets = createPreviewTickets(await getOrCreateSecret(sql, "preview_ticket_key"));
 * const t = await tickets.ticket({ projectId, host: "5173-abc.localhost:3000", userId: "u1" });
 */
import { COOKIE_TTL_S, type PreviewGrant, type PreviewTickets, TICKET_TTL_S } from "../lib/preview-grant";
import { jwtVerify, SignJWT } from "./jwt";

type Kind = "preview-ticket" | "preview-cookie";

export function createPreviewTickets(secret: string): PreviewTickets {
  const key = new TextEncoder().encode(secret);

  const sign = (grant: PreviewGrant, typ: Kind, ttl: number) =>
    new SignJWT({ pid: grant.projectId, host: grant.host.toLowerCase(), ...(grant.userId ? { uid: grant.userId } : { lnk: grant.linkId }) })
      .setProtectedHeader({ alg: "HS256", typ })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
      .sign(key);

  const open = async (token: string, typ: Kind): Promise<PreviewGrant | null> => {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ["HS256"], typ });
      if (protectedHeader.typ !== typ) return null;
      const { pid, host, uid, lnk } = payload as { pid?: unknown; host?: unknown; uid?: unknown; lnk?: unknown };
      if (typeof pid !== "string" || typeof host !== "string") return null;
      if (typeof uid === "string") return { projectId: pid, host, userId: uid };
      if (typeof lnk === "string") return { projectId: pid, host, linkId: lnk };
      return null;
    } catch {
      return null;
    }
  };

  return {
    ticket: (grant) => sign(grant, "preview-ticket", TICKET_TTL_S),
    cookie: (grant) => sign(grant, "preview-cookie", COOKIE_TTL_S),
    openTicket: (token) => open(token, "preview-ticket"),
    openCookie: (token) => open(token, "preview-cookie"),
  };
}
