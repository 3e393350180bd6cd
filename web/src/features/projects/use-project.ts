import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

/** One project; the query runs only when the id is present and non-empty. */
export function useProject(id: string | undefined) {
  return useQuery({ ...queries.project(id ?? ""), enabled: Boolean(id) });
}
