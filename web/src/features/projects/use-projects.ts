import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/endpoints";

/** The signed-in user's projects; null when the API does not accept the session (401). */
export function useProjects() {
  return useQuery(queries.projects());
}
