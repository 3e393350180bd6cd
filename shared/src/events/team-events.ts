/**
 * What the project socket tells everyone in a project about the others (issue 26, "Live together"):
 * `presence` (who has the project open now), `run.started` (someone sent a message: every open chat follows
 * the run, with who sent it) and `activity.changed` (a new line in the Activity panel).
 *
 * @example
 * if (message.type === RUN_STARTED) chat.attach(message.by);
 */

export const PRESENCE = "presence";
export const RUN_STARTED = "run.started";
export const ACTIVITY_CHANGED = "activity.changed";
export const ACCESS_CHANGED = "project.access.changed";

/** One person with the project open; `id` is their user id (a person with two tabs is listed once). */
export type PresentPerson = { id: string; name: string; picture: string | null };

/** Sent to every socket on the project whenever someone opens or leaves it, and to a socket when it subscribes. */
export type PresenceEvent = { type: typeof PRESENCE; projectId: string; people: PresentPerson[] };

/**
 * A member's message started a run: `by` is the sender's name, `userId` theirs (their own chat follows it
 * already). The message itself is read from the history (a bus notification has no room for long text).
 */
export type RunStartedEvent = { type: typeof RUN_STARTED; projectId: string; messageId: string; userId: string; by: string };

/** The project's activity got a line. */
export type ActivityChangedEvent = { type: typeof ACTIVITY_CHANGED; projectId: string };

/**
 * The person's own place in the project changed (made a viewer or an editor, removed, handed the project): the
 * SPA reads the project again, so its screens follow the new role (or show that it is gone).
 */
export type AccessChangedEvent = { type: typeof ACCESS_CHANGED; projectId: string };

export type TeamEvent = PresenceEvent | RunStartedEvent | ActivityChangedEvent | AccessChangedEvent;

/** A person's name as others see it: their display name, else the part of their e-mail before the @, else "Someone". */
export function displayName(person: { name?: string | null; email?: string | null }): string {
  const name = person.name?.trim();
  if (name) return name;
  const local = person.email?.split("@")[0]?.trim();
  return local || "Someone";
}

/** Up to two initials for an avatar: "Ana Lopez" → "AL", "bo" → "B". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [parts[0]?.[0]];
  return letters.filter(Boolean).join("").toUpperCase() || "?";
}
