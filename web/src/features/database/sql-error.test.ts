import { describe, expect, test } from "bun:test";
import { ApiError } from "../../api/api-error";
import { locate, sqlErrorView } from "./sql-error";

const sqlError = (body: object) => new ApiError(400, "bad_request", (body as { error: string }).error, JSON.stringify(body), "Bad Request");

describe("sqlErrorView", () => {
  test("PostgreSQL's message and the line and column its position points at", () => {
    const sql = "select id,\n  nme from items";
    const view = sqlErrorView(sqlError({ error: 'column "nme" does not exist', code: "bad_request", position: 14 }), sql);
    expect(view).toEqual({ message: 'column "nme" does not exist', at: { line: 2, column: 3, text: "  nme from items" } });
  });

  test("no position (a time-out, a network error): the message alone", () => {
    expect(sqlErrorView(sqlError({ error: "The query ran past 10 s and was cancelled.", code: "bad_request" }), "select 1").at).toBeNull();
    expect(sqlErrorView(new Error("Failed to fetch"), "select 1")).toEqual({ message: "Failed to fetch", at: null });
  });
});

describe("locate", () => {
  test("counts characters as PostgreSQL does, not UTF-16 units", () => {
    expect(locate("select '😀', x", 14)).toEqual({ line: 1, column: 14, text: "select '😀', x" });
  });
  test("a position at the end (a statement cut short) points just past the last character", () => {
    expect(locate("select", 7)).toEqual({ line: 1, column: 7, text: "select" });
  });
});
