/** One page of a table's rows in an order; the previous page stays on screen while the next one loads. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useTableRows(projectId: string, table: string | null, page: { limit: number; offset: number; order?: string }) {
  return useQuery({
    ...queries.tableRows(projectId, table ?? "", page),
    enabled: Boolean(projectId && table),
    placeholderData: keepPreviousData,
  });
}
