/**
 * What lets a browser see a preview host: a signed-in member (`userId`) or a share link (`linkId`), for one
 * project and one preview host. Signed into a short-lived ticket (handed to the SPA, spent at
 * `/__appbuilder/enter` on the preview host) and then into the host-only cookie the proxy reads on every
 * request. The signing lives in auth/preview-tickets.ts (the JWT library's side); this is the shape both
 * sides share.
 */
export type PreviewGrant = { projectId: string; host: string } & ({ userId: string; linkId?: undefined } | { linkId: string; userId?: undefined });

export type PreviewTickets = {
  /** A ticket for the enter URL: good for `TICKET_TTL_S` seconds. */
  ticket(grant: PreviewGrant): Promise<string>;
  /** The host cookie's value: good for `COOKIE_TTL_S` seconds (access is still checked on every request). */
  cookie(grant: PreviewGrant): Promise<string>;
  /** The grant a ticket carries, or null when it is forged, expired or not a ticket. */
  openTicket(token: string): Promise<PreviewGrant | null>;
  /** The grant a cookie carries, or null when it is forged, expired or not a cookie. */
  openCookie(token: string): Promise<PreviewGrant | null>;
};

/** Enough to load the page after the SPA asked; a copied enter URL is dead a minute later. */
export const TICKET_TTL_S = 60;
/** How long a preview tab keeps working without a new handshake; removal and revocation count sooner (per request). */
export const COOKIE_TTL_S = 12 * 3600;
/** The proxy's cookie on a preview host (never forwarded to the app in the sandbox). */
export const PREVIEW_COOKIE = "__appbuilder_preview";
/** Where a ticket is spent on a preview host. */
export const ENTER_PATH = "/__appbuilder/enter";
