/**
 * /admin: the server's admin page (ADMIN_EMAILS). Anyone else sees the not-found page, as the API answers them
 * 404; the page asks `GET /api/me` before showing anything.
 */
import { useState } from "react";
import { FullPageSpinner } from "../components/ui/spinner";
import { ConfirmActionDialog } from "../features/admin/confirm-action-dialog";
import { RunningTables } from "../features/admin/running-tables";
import { SitesTable } from "../features/admin/sites-table";
import { type AdminAction, useIsAdmin } from "../features/admin/use-admin";
import { UsersTable } from "../features/admin/users-table";
import { useAuth } from "../features/auth/use-auth";
import { NotFoundPage } from "./not-found-page";

export function AdminPage() {
  const { admin, loading } = useIsAdmin();
  const { user } = useAuth();
  const [action, setAction] = useState<AdminAction | null>(null);
  if (loading) return <FullPageSpinner />;
  if (!admin) return <NotFoundPage />;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 md:px-6 md:py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Admin</h1>
      <p className="mt-1 text-muted-foreground">Users, what runs on every instance, and the published sites of this server.</p>
      <UsersTable me={user?.uid ?? null} onAction={setAction} />
      <RunningTables onAction={setAction} />
      <SitesTable />
      <ConfirmActionDialog action={action} onClose={() => setAction(null)} />
    </div>
  );
}
