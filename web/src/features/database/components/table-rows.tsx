/** A table's rows, a page at a time, sorted by a clicked column header. */
import type { DatabaseEnvironmentName } from "@shared/schemas/database";
import { useState } from "react";
import { describeError } from "../../../api/api-error";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { nextOrder } from "../format-cell";
import { useTableRows } from "../use-table-rows";
import { ResultGrid } from "./result-grid";

export const PAGE_SIZE = 50;

export function TableRows({ projectId, table, env = "development" }: { projectId: string; table: string; env?: DatabaseEnvironmentName }) {
  const [offset, setOffset] = useState(0);
  const [order, setOrder] = useState<string | undefined>(undefined);
  const rows = useTableRows(projectId, table, { limit: PAGE_SIZE, offset, order }, env);

  if (rows.isPending) return <Spinner className="size-6" />;
  if (rows.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load the rows: {describeError(rows.error)}
      </p>
    );
  const { total } = rows.data;
  const last = Math.min(offset + rows.data.rows.length, total);
  return (
    <div className="flex flex-col gap-3" data-testid="table-rows">
      <ResultGrid
        label={`Rows of ${table}`}
        columns={rows.data.columns}
        rows={rows.data.rows}
        order={order}
        onSort={(column) => {
          setOrder(nextOrder(order, column));
          setOffset(0);
        }}
      />
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="tabular-nums text-muted-foreground" data-testid="rows-range">
          {total === 0 ? "No rows" : `Rows ${offset + 1}–${last} of ${total.toLocaleString()}`}
        </span>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={last >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Next
          </Button>
        </div>
      </div>
    </div>
  );
}
