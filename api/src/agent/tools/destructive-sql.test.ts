import { describe, expect, test } from "bun:test";
import { destructiveStatements } from "./destructive-sql";

describe("destructiveStatements", () => {
  test("DROP, TRUNCATE, DELETE or UPDATE without WHERE, ALTER … DROP are destructive", () => {
    expect(destructiveStatements("DROP TABLE IF EXISTS todos")).toEqual(["DROP TABLE todos"]);
    expect(destructiveStatements("truncate table todos, tags")).toEqual(["TRUNCATE todos , tags"]);
    expect(destructiveStatements("delete from todos")).toEqual(["DELETE without WHERE (every row of todos)"]);
    expect(destructiveStatements("UPDATE todos SET done = true")).toEqual(["UPDATE without WHERE (every row of todos)"]);
    expect(destructiveStatements("alter table todos drop column done")).toEqual(["ALTER … DROP on todos"]);
    expect(destructiveStatements("with gone as (delete from todos returning id) select count(*) from gone")).toEqual([
      "DELETE without WHERE (every row of todos)",
    ]);
  });

  test("each statement is judged on its own", () => {
    expect(destructiveStatements("delete from a where id = 1; delete from b")).toEqual(["DELETE without WHERE (every row of b)"]);
  });

  test("with WHERE, or words that only look destructive, nothing is flagged", () => {
    for (const sql of [
      "delete from todos where id = 1",
      "update todos set done = true where id in (select id from todos where done = false)",
      "select * from todos for update",
      "insert into t (id) values (1) on conflict (id) do update set n = t.n + 1",
      "create table t (p int references q on delete cascade on update cascade)",
      "select 'drop table todos; delete from todos'",
      "-- drop table todos\nselect 1",
      'select "delete" from "update"',
      "create function f() returns void as $$ delete from todos $$ language sql",
      "create trigger t after delete or update on todos for each row execute function f()",
      "alter table todos add column due date",
    ]) {
      expect([sql, destructiveStatements(sql)]).toEqual([sql, []]);
    }
  });

  test("a WHERE inside a subquery does not count for the outer statement", () => {
    expect(destructiveStatements("update todos set title = (select title from t where t.id = 1)")).toEqual(["UPDATE without WHERE (every row of todos)"]);
  });
});
