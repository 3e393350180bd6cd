/**
 * A project's activity: who sent messages, restored, published, changed members, links, secrets (names
 * only) and own domains. Recording never fails the action it follows: a lost line is logged, the action stands.
 *
 * @example
 * await recordActivity(ctx, access, "member.added", { email: "bo@example.com", role: "editor" });
 */
import { ACTIVITY_CHANGED } from "@shared/events/team-events";
import type { ActivityEntry } from "@shared/schemas/responses";
import * as rows from "../db/activity";
import type { ProjectAccess } from "./access";
import type { ServiceContext } from "./context";

export type ActivityKind =
  | "message.sent"
  | "version.restored"
  | "site.published"
  | "site.unpublished"
  | "member.invited"
  | "member.role_changed"
  | "member.removed"
  | "member.left"
  | "project.transferred"
  | "share_link.created"
  | "share_link.revoked"
  | "secret.set"
  | "secret.removed"
  | "domain.added"
  | "domain.verified"
  | "domain.removed";

/** How many lines the Activity panel gets. */
const ACTIVITY_LIMIT = 200;

/** Records the line, then tells the project's open Activity panels (`activity.changed`) to read it. */
export async function recordActivity(
  ctx: Pick<ServiceContext, "sql" | "logger"> & { events?: ServiceContext["events"] },
  access: ProjectAccess,
  kind: ActivityKind,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const { projectId } = access;
  const recorded = await rows.insertActivity(ctx.sql, { projectId, actorId: access.userId, kind, detail }).then(
    () => true,
    (error) => void ctx.logger.warn("activity not recorded", { projectId, kind, error: String(error) }),
  );
  if (!recorded || !ctx.events) return;
  await ctx.events
    .publish({ type: ACTIVITY_CHANGED, projectId, ownerId: access.ownerId, origin: "api" })
    .catch((error) => ctx.logger.warn("activity change not published", { projectId, error: String(error) }));
}

export async function listProjectActivity(ctx: Pick<ServiceContext, "sql">, access: ProjectAccess): Promise<ActivityEntry[]> {
  const list = await rows.listActivity(ctx.sql, access.projectId, ACTIVITY_LIMIT);
  return list.map((r) => ({
    id: r.id,
    kind: r.kind,
    detail: r.detail,
    at: r.createdAt.toISOString(),
    actor: r.actorId ? { name: r.actorName, email: r.actorEmail } : null,
  }));
}
