/**
 * Values read from a project's database as JSON cells: bigints and numerics are already text (postgres.js
 * keeps their precision), dates become ISO text, bytes `\x…` hex as PostgreSQL writes them, and a text cell
 * past `maxChars` is cut (with … at the end) so one huge value cannot fill an answer.
 */
import type { Cell } from "@shared/schemas/database";

export function toCell(value: unknown, maxChars = 10_000): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value.length > maxChars ? `${value.slice(0, maxChars)}…` : value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Uint8Array) {
    const hex = Buffer.from(value.subarray(0, maxChars / 2)).toString("hex");
    return `\\x${hex}${value.length > maxChars / 2 ? "…" : ""}`;
  }
  if (Array.isArray(value)) return value.map((v) => toCell(v, maxChars));
  if (typeof value === "object") {
    const text = JSON.stringify(value);
    return text.length > maxChars ? `${text.slice(0, maxChars)}…` : (JSON.parse(text) as Cell);
  }
  return String(value);
}
