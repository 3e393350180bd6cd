/**
 * One activity entry (GET /api/projects/{id}/activity) as a sentence: who, what. Kinds the server adds later
 * read as their name rather than nothing.
 *
 * @example
 * activityLine({ kind: "member.invited", detail: { email: "bo@example.com", role: "editor" }, actor: { name: "Ana", email: null } })
 * // "Ana invited bo@example.com as editor"
 */
import { displayName } from "@shared/events/team-events";
import type { ActivityEntry } from "@shared/schemas/responses";

const text = (value: unknown): string => (typeof value === "string" ? value : "");

const WHAT: Record<string, (d: Record<string, unknown>) => string> = {
  "message.sent": () => "sent a message",
  "version.restored": () => "restored a version",
  "site.published": (d) => (d.url ? `published ${text(d.url)}` : "published the site"),
  "site.unpublished": () => "unpublished the site",
  "member.invited": (d) => `invited ${text(d.email)} as ${text(d.role)}`,
  "member.role_changed": (d) => `made ${text(d.email)} ${text(d.role) === "editor" ? "an editor" : "a viewer"}`,
  "member.removed": (d) => `removed ${text(d.email)}`,
  "member.left": () => "left the project",
  "project.transferred": (d) => `handed the project to ${text(d.email)}`,
  "share_link.created": () => "created a preview link",
  "share_link.revoked": () => "revoked a preview link",
  "secret.set": (d) => `set the secret ${text(d.name)}`,
  "secret.removed": (d) => `removed the secret ${text(d.name)}`,
  "domain.added": (d) => `added the domain ${text(d.domain)}`,
  "domain.verified": (d) => `verified the domain ${text(d.domain)}`,
  "domain.removed": (d) => `removed the domain ${text(d.domain)}`,
};

export function activityLine(entry: Pick<ActivityEntry, "kind" | "detail" | "actor">): string {
  const who = entry.actor ? displayName(entry.actor) : "Someone (no longer a user)";
  const what = WHAT[entry.kind]?.(entry.detail) ?? entry.kind.replace(/[._]/g, " ");
  return `${who} ${what}`;
}
