import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { projectKeys } from "../../api/query-keys";

/** The signed-in user's projects. */
export function useProjects() {
  return useQuery({
    queryKey: projectKeys.all,
    queryFn: api.projects.list,
  });
}
