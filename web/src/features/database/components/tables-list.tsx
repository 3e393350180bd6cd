/** The database's tables with their row counts; choosing one shows its rows. */
import type { DatabaseTable } from "@shared/schemas/database";
import { cn } from "../../../lib/cn";

export function TablesList({ tables, selected, onSelect }: { tables: DatabaseTable[]; selected: string | null; onSelect: (name: string) => void }) {
  if (tables.length === 0) {
    return <p className="text-sm text-muted-foreground">No tables yet. Ask the agent to add some, or create one in the SQL box.</p>;
  }
  return (
    <ul aria-label="Tables" className="flex flex-col gap-1">
      {tables.map((table) => (
        <li key={table.name}>
          <button
            type="button"
            aria-current={table.name === selected ? "true" : undefined}
            onClick={() => onSelect(table.name)}
            className={cn(
              "flex w-full items-center justify-between gap-3 rounded-md px-3 py-2 text-left text-sm hover:bg-muted",
              table.name === selected && "bg-muted font-medium",
            )}
          >
            <span className="truncate font-mono">{table.name}</span>
            <span className="shrink-0 text-xs tabular-nums text-muted-foreground" data-testid="row-count">
              {table.rowEstimate.toLocaleString()} {table.rowEstimate === 1 ? "row" : "rows"}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
