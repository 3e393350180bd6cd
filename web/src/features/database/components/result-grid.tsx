/** A grid of rows under their column headers; with `onSort`, a header click sorts by that column. */
import type { Cell, ResultColumn } from "@shared/schemas/database";
import { cn } from "../../../lib/cn";
import { formatCell } from "../format-cell";

type Props = {
  columns: ResultColumn[];
  rows: Cell[][];
  /** `name` ascending, `-name` descending. */
  order?: string;
  onSort?: (column: string) => void;
  label: string;
};

export function ResultGrid({ columns, rows, order, onSort, label }: Props) {
  if (columns.length === 0) return <p className="text-sm text-muted-foreground">The statement returned no columns.</p>;
  return (
    <div className="max-h-[60vh] overflow-auto rounded-md border">
      <table className="w-full border-collapse text-sm" aria-label={label}>
        <thead className="sticky top-0 bg-muted">
          <tr>
            {columns.map((column, i) => {
              const sort = order === column.name ? "ascending" : order === `-${column.name}` ? "descending" : undefined;
              return (
                <th key={i} scope="col" aria-sort={sort} className="border-b px-3 py-2 text-left font-medium whitespace-nowrap">
                  {onSort ? (
                    <button type="button" className="inline-flex items-center gap-1 hover:underline" onClick={() => onSort(column.name)}>
                      {column.name}
                      <span aria-hidden className="text-xs text-muted-foreground">
                        {sort === "ascending" ? "▲" : sort === "descending" ? "▼" : ""}
                      </span>
                    </button>
                  ) : (
                    column.name
                  )}
                  <span className="ml-2 text-xs font-normal text-muted-foreground">{column.type}</span>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r} className="odd:bg-background even:bg-muted/30">
              {row.map((value, c) => {
                const cell = formatCell(value);
                return (
                  <td
                    key={c}
                    title={cell.cut ? String(typeof value === "object" ? JSON.stringify(value) : value) : undefined}
                    className={cn("border-b px-3 py-1.5 align-top font-mono text-xs whitespace-pre-wrap", cell.isNull && "text-muted-foreground italic")}
                  >
                    {cell.text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="px-3 py-4 text-sm text-muted-foreground">No rows.</p>}
    </div>
  );
}
