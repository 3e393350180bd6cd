import { describe, expect, test } from "bun:test";
import { splitStatements } from "./sql-statements";

describe("splitStatements", () => {
  test("semicolons in strings, identifiers, dollar quotes and comments do not split", () => {
    const sql = `insert into "a;b" values ('x;y', E'it\\'s;');
      create function f() returns int as $body$ select 1; $body$ language sql; -- a; comment
      /* one /* nested; */ still; */ select $$;$$`;
    expect(splitStatements(sql).map((s) => s.code)).toEqual([
      `insert into "" values ('', E'')`,
      "create function f() returns int as $$ language sql",
      "select $$",
    ]);
    expect(splitStatements(sql)[0]!.text).toBe(`insert into "a;b" values ('x;y', E'it\\'s;')`);
  });

  test("empty statements and trailing comments are dropped", () => {
    expect(splitStatements(" ; select 1;; -- end\n")).toEqual([{ text: "select 1", code: "select 1" }]);
    expect(splitStatements("-- nothing")).toEqual([]);
  });

  test("a $1 parameter or a name with $ is not a dollar quote", () => {
    expect(splitStatements("select a$b; select 2").map((s) => s.code)).toEqual(["select a$b", "select 2"]);
  });
});
