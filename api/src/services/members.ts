/**
 * A project's people: the owner invites by e-mail with a role (viewer or editor), changes roles, removes members
 * and hands the project over; a member may leave. An invitation becomes a membership when a user with that
 * verified e-mail signs in (`acceptInvitations`). Each change is recorded in the activity and announced on the
 * bus, so the person's open sockets are checked again on every instance (a removed member hears nothing more).
 *
 * @example
 * const access = await projectAccess(ctx, uid, projectId, "own");
 * await inviteMember(ctx, access, { email: "bo@example.com", role: "editor" });
 */
import { memberRoleProblem, normalEmail, type Member, type MemberRole, type SharedProject } from "@shared/schemas/members";
import type { Identity } from "../auth/types";
import * as members from "../db/members";
import { listLiveSites } from "../db/deployments";
import { findUserEmail } from "../db/users";
import { badRequest, conflict, forbidden, notFound } from "../lib/errors";
import { type ProjectAccess, projectAccess } from "./access";
import { recordActivity } from "./activity";
import type { ServiceContext } from "./context";

export type MembersContext = ServiceContext & { config?: { limits: { maxMembersPerProject?: number } } };

/** Tells every instance to check the person's sockets on the project again. Never fails the change. */
async function announce(ctx: ServiceContext, access: ProjectAccess, userId: string | null, ownerId = access.ownerId): Promise<void> {
  if (!userId) return;
  await ctx.events
    .publish({ type: "project.access.changed", projectId: access.projectId, userId, ownerId, origin: "api" })
    .catch((error) => ctx.logger.warn("access change not published", { projectId: access.projectId, error: String(error) }));
}

/** The owner first, then the members in the order they were invited. Anyone in the project may read it. */
export async function listProjectMembers(ctx: ServiceContext, access: ProjectAccess): Promise<Member[]> {
  const [owner, rows] = await Promise.all([findUserEmail(ctx.sql, access.ownerId), members.listMembers(ctx.sql, access.projectId)]);
  const first: Member = { email: owner?.email ?? "", role: "owner", status: "active", ...(owner?.name ? { name: owner.name } : {}) };
  return [first, ...rows.map(toMember)];
}

const toMember = (r: members.MemberRow): Member => ({
  email: r.email,
  role: r.role,
  status: r.userId ? "active" : "invited",
  ...(r.name ? { name: r.name } : {}),
});

/** The body's e-mail and role, or a 400 saying which is wrong. */
function parseInvite(body: unknown): { email: string; role: MemberRole } {
  const b = (body ?? {}) as { email?: unknown; role?: unknown };
  const email = normalEmail(b.email);
  if (!email) throw badRequest("email: not an e-mail address.");
  const roleProblem = memberRoleProblem(b.role);
  if (roleProblem) throw badRequest(roleProblem);
  return { email, role: b.role as MemberRole };
}

/** Invites `email` with `role` (owner only). 400 for yourself, the owner, an existing member, a bad e-mail or role. */
export async function inviteMember(ctx: MembersContext, access: ProjectAccess, body: unknown): Promise<Member> {
  const { email, role } = parseInvite(body);
  const [me, owner] = await Promise.all([findUserEmail(ctx.sql, access.userId), findUserEmail(ctx.sql, access.ownerId)]);
  if (me?.email?.toLowerCase() === email) throw badRequest("You cannot invite yourself.");
  if (owner?.email?.toLowerCase() === email) throw badRequest("That is the project's owner.");
  const max = ctx.config?.limits.maxMembersPerProject ?? 0;
  const added = await members.insertMemberWithinCap(ctx.sql, { projectId: access.projectId, email, role, invitedBy: access.userId }, max);
  if (added === "exists") throw badRequest(`${email} is already a member of this project.`);
  if (typeof added === "object") {
    throw conflict(`This project already has ${added.full} members, the most a project may have (${max}). Remove someone first.`);
  }
  await recordActivity(ctx, access, "member.invited", { email, role });
  return { email, role, status: "invited" };
}

export async function changeMemberRole(ctx: ServiceContext, access: ProjectAccess, emailParam: string, body: unknown): Promise<Member> {
  const email = normalEmail(emailParam);
  const role = (body as { role?: unknown } | null)?.role;
  const problem = memberRoleProblem(role);
  if (problem) throw badRequest(problem);
  const row = email ? await members.setMemberRole(ctx.sql, access.projectId, email, role as MemberRole) : null;
  if (!row) throw notFound("Member");
  await recordActivity(ctx, access, "member.role_changed", { email: row.email, role });
  await announce(ctx, access, row.userId);
  return toMember(row);
}

/**
 * Removes a member: the owner may remove anyone, a member only themselves (leaving). The removed person's next
 * request answers 404, their sockets stop hearing the project and their terminal closes.
 */
export async function removeMember(ctx: ServiceContext, access: ProjectAccess, emailParam: string): Promise<void> {
  const email = normalEmail(emailParam);
  const row = email ? await members.findMember(ctx.sql, access.projectId, email) : null;
  const leaving = row?.userId === access.userId;
  if (access.role !== "owner" && !leaving)
    throw forbidden(access.role === "viewer" ? "You can only view this project." : "Only the project's owner can manage its members.");
  if (!row || !email) throw notFound("Member");
  if (!(await members.deleteMember(ctx.sql, access.projectId, email))) throw notFound("Member");
  await recordActivity(ctx, access, leaving ? "member.left" : "member.removed", { email });
  await announce(ctx, access, row.userId);
}

/** Hands the project to an active member (owner only); the old owner stays as an editor. */
export async function transferProject(ctx: ServiceContext, access: ProjectAccess, body: unknown): Promise<Member[]> {
  const email = normalEmail((body as { email?: unknown } | null)?.email);
  if (!email) throw badRequest("email: not an e-mail address.");
  const row = await members.findMember(ctx.sql, access.projectId, email);
  if (!row) throw badRequest(`${email} is not a member of this project.`);
  if (!row.userId) throw badRequest(`${email} has not accepted the invitation yet: they become a member when they sign in.`);
  const me = await findUserEmail(ctx.sql, access.userId);
  if (!me?.email) throw badRequest("Your account has no e-mail address, so you could not stay in the project as an editor.");
  const moved = await members.transferOwnership(ctx.sql, {
    projectId: access.projectId,
    fromUserId: access.userId,
    toEmail: email,
    oldOwnerEmail: me.email.toLowerCase(),
  });
  if (!moved) throw conflict("The project's members changed meanwhile; try again.");
  await recordActivity(ctx, access, "project.transferred", { email });
  // Every instance reads the project's live site again, so its server counts for the new owner at once.
  for (const site of await listLiveSites(ctx.sql, moved.toUserId)) {
    if (site.projectId !== access.projectId) continue;
    await ctx.events
      .publishSite({ type: "site.changed", slug: site.slug })
      .catch((error) => ctx.logger.warn("site owner change not published", { projectId: access.projectId, error: String(error) }));
  }
  await announce(ctx, access, access.userId, moved.toUserId);
  await announce(ctx, access, moved.toUserId, moved.toUserId);
  return listProjectMembers(ctx, await projectAccess(ctx, access.userId, access.projectId, "view"));
}

/** On sign-in: every invitation to the caller's verified e-mail becomes their membership. */
export async function acceptInvitations(ctx: Pick<ServiceContext, "sql">, caller: Identity): Promise<void> {
  const email = caller.emailVerified ? normalEmail(caller.email) : null;
  if (email) await members.activateInvitations(ctx.sql, email, caller.uid);
}

/** The projects others own that the caller is in, with the owner's name and the caller's role. */
export async function listSharedProjects(ctx: Pick<ServiceContext, "sql">, userId: string): Promise<SharedProject[]> {
  const rows = await members.listSharedProjects(ctx.sql, userId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    updatedAt: r.updatedAt.toISOString(),
    role: r.role,
    ownerName: r.ownerName ?? r.ownerEmail ?? "Someone",
  }));
}
