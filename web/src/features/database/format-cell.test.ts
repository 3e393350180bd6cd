import { describe, expect, test } from "bun:test";
import { formatCell, MAX_CELL_CHARS, nextOrder } from "./format-cell";

describe("formatCell", () => {
  test("NULL is marked, objects are JSON, numbers and booleans as written", () => {
    expect(formatCell(null)).toEqual({ text: "NULL", isNull: true, cut: false });
    expect(formatCell({ a: [1, 2] }).text).toBe('{"a":[1,2]}');
    expect(formatCell(3.5).text).toBe("3.5");
    expect(formatCell(false).text).toBe("false");
  });
  test("long values are cut for the grid", () => {
    const cell = formatCell("x".repeat(MAX_CELL_CHARS + 5));
    expect(cell.cut).toBe(true);
    expect(cell.text).toHaveLength(MAX_CELL_CHARS + 1);
  });
});

test("a header click cycles ascending, descending, unsorted; another column starts ascending", () => {
  expect(nextOrder(undefined, "id")).toBe("id");
  expect(nextOrder("id", "id")).toBe("-id");
  expect(nextOrder("-id", "id")).toBeUndefined();
  expect(nextOrder("-id", "title")).toBe("title");
});
