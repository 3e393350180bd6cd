/**
 * A project's people on the wire (`/api/projects/{id}/members…`, `/transfer`, `/api/projects/shared`): the
 * roles, an invitation's body and why one is refused, and the member list's shape.
 */
import type { Member, SharedProject } from "./responses";

export type { Member, SharedProject };

/** What a member may be made; the owner is the project's own, given only by a transfer. */
export const MEMBER_ROLES = ["viewer", "editor"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export type InviteMember = { email: string; role: MemberRole };
export type ChangeMemberRole = { role: MemberRole };
export type TransferProject = { email: string };

// One @, something before it, a dot in the domain, no spaces: a person's typo is caught, nothing is promised.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** The address as members are kept (lower-cased, trimmed), or null when it is not an e-mail address. */
export function normalEmail(email: unknown): string | null {
  if (typeof email !== "string") return null;
  const trimmed = email.trim().toLowerCase();
  return trimmed.length <= 254 && EMAIL.test(trimmed) ? trimmed : null;
}

/** Why `role` cannot be given to a member, in words; null when it can. */
export function memberRoleProblem(role: unknown): string | null {
  return (MEMBER_ROLES as readonly unknown[]).includes(role) ? null : `role must be "viewer" or "editor".`;
}
