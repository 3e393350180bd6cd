/**
 * Presence across API instances: each hub holds only its own sockets, so whenever the people it has on a project
 * change it tells the others over the event bus (`presence.relay`, with its own random id), and keeps what the
 * others told it. A hub that just got a person on a project asks (`ask`), and every other hub with people there
 * answers with its list, so a newcomer learns who is already present elsewhere. An empty list removes that hub's
 * entry. When the bus lost its connection (resync), what others said is dropped and asked for again. An instance
 * that dies without a word leaves its people listed until another change there is relayed.
 *
 * @example
 * const relay = createPresenceRelay({ events, changed: (projectId) => announce(projectId) });
 * relay.tell(projectId, presentPeople(localSockets), true);
 * const everyone = mergePeople(presentPeople(localSockets), relay.elsewhere(projectId));
 */
import type { PresentPerson } from "@shared/events/team-events";
import type { EventBus } from "../events/types";
import type { Logger } from "../lib/logger";

export type PresenceRelay = {
  /** Tells the other hubs who is on the project here (`ask`: and asks them to say who is there). */
  tell(projectId: string, people: PresentPerson[], ask?: boolean): void;
  /** Who the other hubs said is on the project. */
  elsewhere(projectId: string): PresentPerson[];
  close(): void;
};

/** One entry per person, first seen first. */
export function mergePeople(...lists: PresentPerson[][]): PresentPerson[] {
  const people = new Map<string, PresentPerson>();
  for (const list of lists) for (const p of list) if (!people.has(p.id)) people.set(p.id, p);
  return [...people.values()];
}

export function createPresenceRelay(deps: {
  events: EventBus;
  logger: Logger;
  /** Another hub's people on the project changed: re-announce it to this hub's sockets. */
  changed(projectId: string): void;
  /** This hub's people on the project now (for answering an ask). */
  here(projectId: string): PresentPerson[];
}): PresenceRelay {
  const hub = crypto.randomUUID();
  // projectId → other hub's id → its people there
  const remote = new Map<string, Map<string, PresentPerson[]>>();

  const publish = (projectId: string, people: PresentPerson[], ask: boolean) =>
    void deps.events
      .publish({ type: "presence.relay", projectId, hub, people, ask, origin: "api" })
      .catch((error) => deps.logger.warn("presence not relayed", { projectId, error: String(error) }));

  const unsubscribe = deps.events.subscribe((event) => {
    if (event.type !== "presence.relay" || event.hub === hub) return;
    const hubs = remote.get(event.projectId) ?? new Map<string, PresentPerson[]>();
    if (event.people.length) hubs.set(event.hub, event.people);
    else hubs.delete(event.hub);
    if (hubs.size) remote.set(event.projectId, hubs);
    else remote.delete(event.projectId);
    const mine = deps.here(event.projectId);
    if (event.ask && mine.length) publish(event.projectId, mine, false);
    if (mine.length) deps.changed(event.projectId);
  });

  const unsubscribeResync = deps.events.onResync(() => {
    const projects = [...remote.keys()];
    remote.clear();
    for (const projectId of projects) {
      const mine = deps.here(projectId);
      if (mine.length) publish(projectId, mine, true), deps.changed(projectId);
    }
  });

  return {
    tell: (projectId, people, ask = false) => publish(projectId, people, ask),
    elsewhere: (projectId) => mergePeople(...(remote.get(projectId)?.values() ?? [])),
    close() {
      unsubscribe();
      unsubscribeResync();
      remote.clear();
    },
  };
}
