/** The project's development database: its size and tables with their columns and row counts. */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useDatabase(projectId: string) {
  return useQuery({ ...queries.database(projectId), enabled: Boolean(projectId) });
}
