/**
 * Share links: a URL that opens a project's live preview without signing in, and nothing else. Editors and
 * the owner make, list and revoke them; the token (256 random bits) is shown once, only its SHA-256 is kept.
 * Opening one (`openShareLink`) starts a sleeping sandbox on the owner's account and hands back a preview
 * ticket for the link, so the preview host sets its cookie; the proxy checks the link on every request
 * (services/access.ts `previewAllowed`), so a revoked or expired link answers 404 on every instance at once.
 *
 * @example
 * const link = await createShareLink(ctx, access, { expiresInHours: 24 }, "https://builder.example.com");
 */
import { createShareLinkSchema, type CreatedShareLink, type ShareLink } from "@shared/schemas/share-links";
import { findSandboxUrl } from "../db/project-sandbox";
import * as rows from "../db/share-links";
import { badRequest, notFound } from "../lib/errors";
import type { PreviewGrant } from "../lib/preview-grant";
import { SHARE_PATH } from "../lib/redact-path";
import { summarizeIssues } from "../lib/validate";
import { type ProjectAccess, shareLinkAccess } from "./access";
import { recordActivity } from "./activity";
import { isUuid, type ServiceContext } from "./context";

const hashToken = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

export async function createShareLink(ctx: ServiceContext, access: ProjectAccess, body: unknown, origin: string): Promise<CreatedShareLink> {
  const parsed = createShareLinkSchema.safeParse(body ?? {});
  if (!parsed.success) throw badRequest(summarizeIssues(parsed.error.issues));
  const hours = parsed.data.expiresInHours;
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const row = await rows.insertShareLink(ctx.sql, {
    id: crypto.randomUUID(),
    projectId: access.projectId,
    tokenHash: hashToken(token),
    createdBy: access.userId,
    expiresAt: hours ? new Date(Date.now() + hours * 3600_000) : null,
  });
  const expiresAt = row.expiresAt?.toISOString() ?? null;
  await recordActivity(ctx, access, "share_link.created", { linkId: row.id, expiresAt });
  return { id: row.id, url: `${origin.replace(/\/$/, "")}${SHARE_PATH}${token}`, expiresAt };
}

/** The project's live links, newest first, without their tokens (only hashes are kept). */
export async function listShareLinks(ctx: ServiceContext, access: ProjectAccess): Promise<ShareLink[]> {
  return (await rows.listShareLinks(ctx.sql, access.projectId)).map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    createdBy: r.creatorName,
  }));
}

/**
 * Deletes the link: the proxy's next request through it (on any instance) reads no row and answers 404, and
 * every instance closes the preview sockets and pages already open through it (`share_link.revoked`).
 */
export async function revokeShareLink(ctx: ServiceContext, access: ProjectAccess, linkId: string): Promise<void> {
  if (!isUuid(linkId) || !(await rows.deleteShareLink(ctx.sql, access.projectId, linkId))) throw notFound("Link");
  await recordActivity(ctx, access, "share_link.revoked", { linkId });
  await ctx.events
    .publish({ type: "share_link.revoked", projectId: access.projectId, linkId, ownerId: access.ownerId, origin: "api" })
    .catch((error) => ctx.logger.warn("link revocation not published", { projectId: access.projectId, error: String(error) }));
}

/**
 * What a link's token opens: the project's sandbox, started on the owner's account if it sleeps, and a grant
 * for its preview host. 404 for an unknown, revoked or expired token.
 */
export async function openShareLink(
  ctx: ServiceContext & { sandboxes: { ensure(access: ProjectAccess): Promise<unknown> } },
  token: string,
  previewHost: (url: string | null) => string | null,
): Promise<PreviewGrant> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound("Link");
  const { access, linkId } = await shareLinkAccess(ctx, hashToken(token));
  await ctx.sandboxes.ensure(access);
  const host = previewHost(await findSandboxUrl(ctx.sql, access.projectId));
  // E2B serves previews from its own hosts, which this server cannot put a cookie on: nothing to open here.
  if (!host) throw notFound("Link");
  return { projectId: access.projectId, host, linkId };
}
