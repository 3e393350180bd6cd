/**
 * The SQL box: a statement run against the development database (Ctrl/Cmd+Enter or Run), its result grid,
 * or PostgreSQL's error with the line it points at and a caret under the place.
 */
import type { DatabaseEnvironmentName } from "@shared/schemas/database";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { sqlErrorView } from "../sql-error";
import { useRunQuery } from "../use-run-query";
import { ResultGrid } from "./result-grid";

export function SqlBox({ projectId, env = "development" }: { projectId: string; env?: DatabaseEnvironmentName }) {
  const [sql, setSql] = useState("");
  const [ran, setRan] = useState("");
  const run = useRunQuery(projectId, env);
  const submit = () => {
    if (!sql.trim() || run.isPending) return;
    setRan(sql);
    run.mutate(sql);
  };
  const error = run.isError ? sqlErrorView(run.error, ran) : null;

  return (
    <section aria-labelledby="sql-box-title" className="flex flex-col gap-3">
      <h2 id="sql-box-title" className="text-lg font-semibold">
        SQL
      </h2>
      <textarea
        aria-label="SQL"
        value={sql}
        onChange={(e) => setSql(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          }
        }}
        rows={5}
        spellCheck={false}
        placeholder="select * from items limit 10"
        className="w-full rounded-md border bg-background p-3 font-mono text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
      <div className="flex items-center gap-3">
        <Button onClick={submit} disabled={!sql.trim() || run.isPending}>
          {run.isPending && <Spinner className="size-4" />}
          Run
        </Button>
        <span className="text-xs text-muted-foreground">Ctrl+Enter runs it. At most 500 rows are shown; a statement stops after 10 s.</span>
      </div>
      {error && (
        <div role="alert" className="rounded-md border border-destructive/50 p-3 text-sm" data-testid="sql-error">
          <p className="font-medium text-destructive">{error.message}</p>
          {error.at && (
            <>
              <p className="mt-1 text-xs text-muted-foreground">
                At line {error.at.line}, column {error.at.column}:
              </p>
              <pre className="mt-1 overflow-x-auto font-mono text-xs">
                {error.at.text}
                {"\n"}
                {" ".repeat(error.at.column - 1)}^
              </pre>
            </>
          )}
        </div>
      )}
      {run.isSuccess && (
        <div className="flex flex-col gap-2" data-testid="sql-result">
          <p className="text-xs text-muted-foreground tabular-nums">
            {run.data.rowCount.toLocaleString()} {run.data.rowCount === 1 ? "row" : "rows"} in {Math.round(run.data.ms)} ms
            {run.data.truncated && ` (the first ${run.data.rows.length} shown)`}
          </p>
          {run.data.columns.length > 0 && <ResultGrid label="Query result" columns={run.data.columns} rows={run.data.rows} />}
        </div>
      )}
    </section>
  );
}
