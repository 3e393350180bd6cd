/** Who else has the project open now (the socket's `presence`), without me. */
import { PRESENCE, type PresentPerson } from "@shared/events/team-events";
import { useState } from "react";
import { useAuth } from "../auth/use-auth";
import { useTeamEvents } from "./use-team-events";

export function usePresence(projectId: string): PresentPerson[] {
  const { user } = useAuth();
  const [people, setPeople] = useState<PresentPerson[]>([]);
  useTeamEvents(projectId, (event) => {
    if (event.type === PRESENCE) setPeople(othersThan(event.people, user?.uid));
  });
  return people;
}

/** The people present other than `me` (a person is told who else is there, not that they are). */
export function othersThan(people: PresentPerson[], me: string | undefined): PresentPerson[] {
  return people.filter((p) => p.id !== me);
}
