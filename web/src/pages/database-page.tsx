/**
 * /project/{id}/database: the project's databases, Development or Production by a switch: the tables with row
 * counts, the chosen table's rows (paged, sortable) and a SQL box. Opening development makes it if the project
 * has none yet; production exists from the first server publish and is shown read-only.
 */
import type { DatabaseEnvironmentName } from "@shared/schemas/database";
import { useState } from "react";
import { describeError } from "../api/api-error";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { SqlBox } from "../features/database/components/sql-box";
import { TableRows } from "../features/database/components/table-rows";
import { TablesList } from "../features/database/components/tables-list";
import { formatFileSize } from "../features/files/format-file-size";
import { useDatabase } from "../features/database/use-database";

export function DatabasePage({ projectId }: { projectId: string }) {
  const [env, setEnv] = useState<DatabaseEnvironmentName>("development");
  const database = useDatabase(projectId, env);
  const [chosen, setChosen] = useState<string | null>(null);

  if (database.isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center text-muted-foreground">
        <Spinner className="size-8" />
      </div>
    );
  }
  const tables = database.data?.tables ?? [];
  // The chosen table, else the first one (and none once it is dropped).
  const selected = tables.find((t) => t.name === chosen)?.name ?? tables[0]?.name ?? null;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-6 md:px-6" data-testid="database-page">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex items-center gap-3">
            <h1 className="text-3xl font-bold tracking-tight">Database</h1>
            {database.data && (
              <span data-testid="database-size" className="rounded-full bg-muted px-2.5 py-0.5 text-sm font-medium tabular-nums">
                {formatFileSize(database.data.sizeBytes)}
              </span>
            )}
          </div>
          <p className="mt-1 text-muted-foreground">
            {env === "production"
              ? "The published app's production database (PostgreSQL), read-only here: it changes through the app and through migrations at publish"
              : "The app's development database (PostgreSQL), reached by the app through DATABASE_URL"}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <div role="group" aria-label="Environment" className="inline-flex rounded-md border p-0.5">
            {(["development", "production"] as const).map((name) => (
              <Button key={name} size="sm" variant={env === name ? "primary" : "ghost"} aria-pressed={env === name} onClick={() => setEnv(name)}>
                {name === "development" ? "Development" : "Production"}
              </Button>
            ))}
          </div>
          <Button variant="outline" onClick={() => database.refetch()} disabled={database.isFetching}>
            Refresh
          </Button>
        </div>
      </header>

      {database.isError && !database.data ? (
        <div role="alert" className="rounded-lg border border-destructive/50 p-6 text-sm">
          <p className="font-medium">Could not open the database.</p>
          <p className="mt-1 text-muted-foreground">{describeError(database.error)}</p>
          <Button variant="outline" size="sm" className="mt-4" onClick={() => database.refetch()}>
            Try again
          </Button>
        </div>
      ) : database.data?.status === "unavailable" ? (
        <p role="status" className="rounded-lg border p-6 text-sm">
          This server cannot make project databases. The administrator can set one up (see the README).
        </p>
      ) : database.data?.status === "not_created" ? (
        <p role="status" className="rounded-lg border p-6 text-sm">
          There is no production database yet. It is made when the project is first published with a server (a start script in package.json).
        </p>
      ) : (
        <>
          <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
            <nav aria-label="Database tables">
              <TablesList tables={tables} selected={selected} onSelect={setChosen} />
            </nav>
            <div className="min-w-0">{selected && <TableRows key={`${env}:${selected}`} projectId={projectId} table={selected} env={env} />}</div>
          </div>
          <SqlBox key={env} projectId={projectId} env={env} />
        </>
      )}
    </div>
  );
}
