/**
 * Runs SQL from the SQL box. A statement may change the tables or their rows, so afterwards the table list
 * and every rows page of the project are fetched again.
 */
import type { DatabaseEnvironmentName } from "@shared/schemas/database";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { databaseKeys } from "../../api/query-keys";

export function useRunQuery(projectId: string, env: DatabaseEnvironmentName = "development") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sql: string) => api.database.query(projectId, sql, env),
    onSettled: () => queryClient.invalidateQueries({ queryKey: databaseKeys.info(projectId) }),
  });
}
