/** One of the project's databases (development or production): its size and tables with their columns and row counts. */
import type { DatabaseEnvironmentName } from "@shared/schemas/database";
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useDatabase(projectId: string, env: DatabaseEnvironmentName = "development") {
  return useQuery({ ...queries.database(projectId, env), enabled: Boolean(projectId) });
}
