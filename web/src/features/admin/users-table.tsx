/** Every user: their projects, tokens this month, last sign-in, and Disable / Enable (asked first). */
import { Button } from "../../components/ui/button";
import { formatRelativeTime } from "../../lib/relative-time";
import { AdminSection, cell } from "./admin-table";
import { type AdminAction, useAdminUsers } from "./use-admin";

export function UsersTable({ me, onAction }: { me: string | null; onAction: (action: AdminAction) => void }) {
  const users = useAdminUsers();
  const rows = users.data ?? [];
  return (
    <AdminSection
      title="Users"
      query={users}
      empty={rows.length ? null : "No users yet."}
      head={["User", "Projects", "Tokens this month", "Last sign-in", "Status", ""]}
    >
      {rows.map((u) => {
        const label = u.email ?? u.name ?? u.id;
        return (
          <tr key={u.id} data-testid="admin-user">
            <td className={cell}>
              <div className="font-medium">{u.email ?? "(no e-mail)"}</div>
              {u.name && <div className="text-xs text-muted-foreground">{u.name}</div>}
            </td>
            <td className={cell}>
              <span>{u.projects.length}</span>
              {u.projects.length > 0 && (
                <span className="ml-2 text-xs text-muted-foreground">
                  {u.projects
                    .slice(0, 3)
                    .map((p) => p.name)
                    .join(", ")}
                  {u.projects.length > 3 ? ", …" : ""}
                </span>
              )}
            </td>
            <td className={cell}>{u.tokensThisMonth.toLocaleString()}</td>
            <td className={cell}>{u.lastSignInAt ? formatRelativeTime(u.lastSignInAt) : "never"}</td>
            <td className={cell}>{u.disabledAt ? <span className="text-destructive">Disabled</span> : "Active"}</td>
            <td className={`${cell} text-right`}>
              {u.disabledAt ? (
                <Button size="sm" variant="outline" onClick={() => onAction({ kind: "enable", userId: u.id, label })}>
                  Enable
                </Button>
              ) : (
                // Disabling yourself is refused by the API too; no button offers it.
                u.id !== me && (
                  <Button size="sm" variant="outline" onClick={() => onAction({ kind: "disable", userId: u.id, label })}>
                    Disable
                  </Button>
                )
              )}
            </td>
          </tr>
        );
      })}
    </AdminSection>
  );
}
