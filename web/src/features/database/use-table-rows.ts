/** One page of a table's rows in an order; the previous page stays on screen while the next one loads. */
import type { DatabaseEnvironmentName } from "@shared/schemas/database";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useTableRows(
  projectId: string,
  table: string | null,
  page: { limit: number; offset: number; order?: string },
  env: DatabaseEnvironmentName = "development",
) {
  return useQuery({
    ...queries.tableRows(projectId, table ?? "", page, env),
    enabled: Boolean(projectId && table),
    placeholderData: keepPreviousData,
  });
}
