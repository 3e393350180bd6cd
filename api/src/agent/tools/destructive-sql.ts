/**
 * Which statements of a run_sql call destroy data: DROP, TRUNCATE, DELETE or UPDATE without WHERE, and
 * ALTER … DROP. They still run (versions keep the data, so they can be undone), but the chat shows them as a
 * warning step. Words inside strings, quoted names, comments and function bodies are not looked at.
 *
 * @example
 * destructiveStatements("delete from todos; select 1") // ["DELETE without WHERE (every row of todos)"]
 */
import { splitStatements } from "../../lib/sql-statements";

type Word = { word: string; depth: number };

/** The words of a statement's code, lower-cased, each with its parenthesis depth. */
function words(code: string): Word[] {
  const out: Word[] = [];
  let depth = 0;
  for (const token of code.toLowerCase().match(/[a-z_][a-z0-9_$]*|\(|\)|"[^"]*"|[^\sa-z_()]+/g) ?? []) {
    if (token === "(") depth++;
    else if (token === ")") depth = Math.max(0, depth - 1);
    else out.push({ word: token, depth });
  }
  return out;
}

/** From `start`, the words on its own level until the level closes. */
function clause(list: Word[], start: number): Word[] {
  const depth = list[start]!.depth;
  const out: Word[] = [];
  for (let i = start + 1; i < list.length && list[i]!.depth >= depth; i++) if (list[i]!.depth === depth) out.push(list[i]!);
  return out;
}

/** What each destructive statement in `sql` does, in a few words; empty when none is. */
export function destructiveStatements(sql: string): string[] {
  const found: string[] = [];
  for (const statement of splitStatements(sql)) {
    const list = words(statement.code);
    const first = list[0]?.word;
    if (first === "drop") {
      const [kind, name] = list.slice(1).filter((w) => !["if", "exists"].includes(w.word));
      found.push(`DROP ${kind?.word.toUpperCase() ?? ""} ${name?.word ?? ""}`.trim());
      continue;
    }
    if (first === "truncate") {
      found.push(
        `TRUNCATE ${list
          .slice(1)
          .filter((w) => w.word !== "table")
          .map((w) => w.word)
          .slice(0, 3)
          .join(" ")}`.trim(),
      );
      continue;
    }
    if (first === "alter" && list.some((w) => w.word === "drop" && w.depth === 0)) {
      found.push(`ALTER … DROP on ${list.find((w, i) => i > 1 && !["if", "exists", "only"].includes(w.word))?.word ?? "a table"}`);
      continue;
    }
    list.forEach((w, i) => {
      const before = list[i - 1]?.word;
      if (w.word === "delete" && list[i + 1]?.word === "from" && before !== "on") {
        const rest = clause(list, i);
        if (!rest.some((r) => r.word === "where")) found.push(`DELETE without WHERE (every row of ${rest[1]?.word ?? "the table"})`);
      }
      if (w.word === "update" && !["do", "for", "key", "on", "of"].includes(before ?? "")) {
        const rest = clause(list, i);
        if (rest.some((r) => r.word === "set") && !rest.some((r) => r.word === "where")) {
          found.push(`UPDATE without WHERE (every row of ${rest.find((r) => r.word !== "only")?.word ?? "the table"})`);
        }
      }
    });
  }
  return found;
}
