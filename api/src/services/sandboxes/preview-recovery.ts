/**
 * A preview request for a sandbox whose owning instance is gone (issue 24, item 2): the sandbox is made again
 * on this instance from storage (its app too, as after any expiry), and the browser is sent on to the new
 * sandbox's preview host through a fresh ticket for the same grant (the same member or share link), landing
 * on the path it asked for. Only called once the grant was checked for the old sandbox.
 *
 * @example
 * const location = await previewAfterOwnerGone(ctx, grant, owner, "/about"); // the new host's enter URL
 */
import { findSandboxUrl } from "../../db/project-sandbox";
import type { Config } from "../../lib/config";
import type { PreviewGrant, PreviewTickets } from "../../lib/preview-grant";
import type { ProjectAccess } from "../../lib/project-access";
import type { ServiceContext } from "../context";
import { enterUrl, proxiedPreviewHost } from "./preview-url";

export async function previewAfterOwnerGone(
  ctx: ServiceContext & { config: Config; previewTickets: PreviewTickets; sandboxes: { ensure(access: ProjectAccess): Promise<unknown> } },
  grant: PreviewGrant,
  gone: { projectId: string; ownerId: string },
  path: string,
): Promise<string | null> {
  // On the owner's account, as a share link starts a sleeping sandbox: their limits and start counts apply.
  const access = { projectId: gone.projectId, userId: gone.ownerId, ownerId: gone.ownerId, role: "owner" } as ProjectAccess;
  await ctx.sandboxes.ensure(access);
  const host = proxiedPreviewHost(ctx.config.preview, await findSandboxUrl(ctx.sql, gone.projectId));
  if (!host) return null;
  const ticket = await ctx.previewTickets.ticket({ ...grant, host });
  return `${enterUrl(ctx.config.preview, host, ticket)}&next=${encodeURIComponent(path)}`;
}
