/**
 * The people around a project: members, projects shared with the caller, the activity feed, preview share
 * links and the ticket that lets a browser onto a preview host.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

/** A person in a project (`GET /api/projects/{id}/members`): the owner first, then members, `invited` until they sign in. */
export const memberSchema = z.object({
  email: z.string(),
  role: z.enum(["owner", "editor", "viewer"]),
  status: z.enum(["active", "invited"]),
  name: z.optional(z.string()),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.array(memberSchema);

/** A project someone else owns that the caller is a member of (the project list's "Shared with me"). */
export const sharedProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  updatedAt: z.string(),
  role: z.enum(["editor", "viewer"]),
  ownerName: z.string(),
});
export type SharedProject = z.infer<typeof sharedProjectSchema>;
export const sharedProjectListSchema = z.array(sharedProjectSchema);

/** A line of `GET /api/projects/{id}/activity`: what happened (`kind`, with its detail), when and by whom. */
export const activityEntrySchema = z.object({
  id: z.string(),
  kind: z.string(),
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
  actor: z.nullable(z.object({ name: z.nullable(z.string()), email: z.nullable(z.string()) })),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
export const activityListSchema = z.array(activityEntrySchema);
/** A preview share link as listed (`GET /api/projects/{id}/share-links`): never its token. */
export const shareLinkSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.nullable(z.string()),
  /** The name of who made it, when known. */
  createdBy: z.nullable(z.string()),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
export const shareLinkListSchema = z.array(shareLinkSchema);
/** A link just made: the only answer that carries its URL. */
export const createdShareLinkSchema = z.object({ id: z.string(), url: z.string(), expiresAt: z.nullable(z.string()) });
export type CreatedShareLink = z.infer<typeof createdShareLinkSchema>;
/**
 * Where to load a preview so its host lets the browser in (`POST /api/sandbox/{projectId}/preview-ticket`):
 * `enterUrl` spends a one-minute ticket and sets the host's cookie (add `&next=<path>`); both null when the
 * preview is not behind this server's proxy (E2B's own hosts).
 */
export const previewTicketSchema = z.object({ origin: z.nullable(z.string()), enterUrl: z.nullable(z.string()) });
export type PreviewTicket = z.infer<typeof previewTicketSchema>;
