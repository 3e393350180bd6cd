/** A cell of a result grid as text: NULL marked, objects as JSON, long values cut for the grid. */
import type { Cell } from "@shared/schemas/database";

export const MAX_CELL_CHARS = 200;

export type CellText = { text: string; isNull: boolean; cut: boolean };

export function formatCell(value: Cell): CellText {
  if (value === null) return { text: "NULL", isNull: true, cut: false };
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > MAX_CELL_CHARS ? { text: `${text.slice(0, MAX_CELL_CHARS)}…`, isNull: false, cut: true } : { text, isNull: false, cut: false };
}

/** The next `order` when a column header is clicked: ascending, then descending, then the table's own order. */
export function nextOrder(current: string | undefined, column: string): string | undefined {
  if (current === column) return `-${column}`;
  if (current === `-${column}`) return undefined;
  return column;
}
