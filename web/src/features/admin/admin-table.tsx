/** The admin page's table frame: a titled section, its loading and error states, and a note when empty. */
import type { ReactNode } from "react";
import { describeError } from "../../api/api-error";
import { Skeleton } from "../../components/ui/skeleton";

export function AdminSection({
  title,
  query,
  empty,
  head,
  children,
}: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: unknown };
  /** Shown instead of the table when it has no rows. */
  empty: string | null;
  head: string[];
  children: ReactNode;
}) {
  const id = `admin-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {describeError(query.error)}
        </p>
      ) : empty ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full text-left text-sm">
            <thead className="bg-muted/50 text-xs text-muted-foreground">
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y">{children}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export const cell = "px-3 py-2 align-top";
