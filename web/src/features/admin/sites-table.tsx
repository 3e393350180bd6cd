/** The live published sites, each linked. */
import { formatRelativeTime } from "../../lib/relative-time";
import { AdminSection, cell } from "./admin-table";
import { useAdminSites } from "./use-admin";

export function SitesTable() {
  const sites = useAdminSites();
  const rows = sites.data ?? [];
  return (
    <AdminSection title="Published sites" query={sites} empty={rows.length ? null : "No site is published."} head={["Site", "Project", "Owner", "Published"]}>
      {rows.map((s) => (
        <tr key={s.projectId} data-testid="admin-site">
          <td className={cell}>
            <a href={s.url} target="_blank" rel="noreferrer" className="text-primary underline-offset-4 hover:underline">
              {s.slug}
            </a>
          </td>
          <td className={cell}>{s.projectName}</td>
          <td className={cell}>{s.ownerEmail ?? "—"}</td>
          <td className={cell}>{s.publishedAt ? formatRelativeTime(s.publishedAt) : "—"}</td>
        </tr>
      ))}
    </AdminSection>
  );
}
