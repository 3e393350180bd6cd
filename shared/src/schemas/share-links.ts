/**
 * Preview share links on the wire (`/api/projects/{id}/share-links…`): the body that makes one, what making one
 * answers (the only time its URL is shown), the list (never a token again), and the preview ticket the SPA
 * asks for before framing a preview (`POST /api/sandbox/{projectId}/preview-ticket`); the answers' schemas are
 * in ./responses/.
 */
import { z } from "zod";

/** A link lasts at most a year; without `expiresInHours` it lasts until revoked. */
export const MAX_SHARE_LINK_HOURS = 24 * 365;

export const createShareLinkSchema = z.object({
  expiresInHours: z.number().int().min(1).max(MAX_SHARE_LINK_HOURS).optional().describe("Hours until the link stops working; none: until revoked"),
});
export type CreateShareLink = z.infer<typeof createShareLinkSchema>;

export type { CreatedShareLink, PreviewTicket, ShareLink } from "./responses";
