/**
 * Who has a project open on this instance, from the hub's sockets subscribed to it: one entry per person
 * (a second tab adds nobody), in the order they arrived. Presence is per instance: behind several API
 * instances a person sees the others connected to the same one.
 *
 * @example
 * const people = presentPeople(byProject.get(projectId) ?? []);
 */
import { displayName, PRESENCE, type PresenceEvent, type PresentPerson } from "@shared/events/team-events";
import type { Identity } from "../auth/types";

export function presentPeople(sockets: Iterable<{ data: { caller: Identity } }>): PresentPerson[] {
  const people = new Map<string, PresentPerson>();
  for (const ws of sockets) {
    const { caller } = ws.data;
    if (!people.has(caller.uid)) people.set(caller.uid, { id: caller.uid, name: displayName(caller), picture: caller.picture });
  }
  return [...people.values()];
}

export function presenceMessage(projectId: string, sockets: Iterable<{ data: { caller: Identity } }>): PresenceEvent {
  return { type: PRESENCE, projectId, people: presentPeople(sockets) };
}
