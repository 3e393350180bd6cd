/**
 * Splits SQL text into its statements the way PostgreSQL reads it: semicolons inside quotes, quoted
 * identifiers, dollar-quoted bodies and comments do not end a statement. Each statement comes back with its
 * code only (comments and literal contents blanked), for classifying it by its words.
 *
 * @example
 * splitStatements("insert into t values (';'); -- done").map((s) => s.code) // ["insert into t values ('')"]
 */

export type SqlStatement = {
  /** The statement as written (trimmed, no closing semicolon). */
  text: string;
  /** The same with comments removed and the contents of strings and quoted identifiers emptied. */
  code: string;
};

export function splitStatements(sql: string): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let text = "";
  let code = "";
  const flush = () => {
    if (code.trim()) statements.push({ text: text.trim(), code: code.replace(/\s+/g, " ").trim() });
    text = "";
    code = "";
  };
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (ch === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      text += sql.slice(i, stop);
      code += " ";
      i = stop;
    } else if (ch === "/" && next === "*") {
      // Block comments nest in PostgreSQL.
      let depth = 0;
      let j = i;
      while (j < sql.length) {
        if (sql[j] === "/" && sql[j + 1] === "*") depth++, (j += 2);
        else if (sql[j] === "*" && sql[j + 1] === "/") {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else j++;
      }
      text += sql.slice(i, j);
      code += " ";
      i = j;
    } else if (ch === "'" || ch === '"') {
      // '' and "" inside are the quote itself; E'…' strings may also escape with a backslash.
      const escapes = ch === "'" && /[eE]$/.test(code) && !/[\w$][eE]$/.test(code);
      let j = i + 1;
      while (j < sql.length) {
        if (escapes && sql[j] === "\\") j += 2;
        else if (sql[j] === ch && sql[j + 1] === ch) j += 2;
        else if (sql[j] === ch) break;
        else j++;
      }
      text += sql.slice(i, j + 1);
      code += ch + ch;
      i = j + 1;
    } else if (ch === "$" && !/[\w$]$/.test(code)) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        text += sql.slice(i, stop);
        code += "$$";
        i = stop;
      } else {
        text += ch;
        code += ch;
        i++;
      }
    } else if (ch === ";") {
      flush();
      i++;
    } else {
      text += ch;
      code += ch;
      i++;
    }
  }
  flush();
  return statements;
}
