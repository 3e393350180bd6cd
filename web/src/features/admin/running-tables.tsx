/**
 * What runs now, on every instance: the sandboxes and the answers being written, sorted by the instance that
 * holds each ("this instance" is the one that answered the page), each with Stop (asked first).
 */
import type { AdminRunning } from "@shared/schemas/responses";
import { Button } from "../../components/ui/button";
import { formatRelativeTime } from "../../lib/relative-time";
import { AdminSection, cell } from "./admin-table";
import { type AdminAction, useAdminRunning } from "./use-admin";

function instanceLabel(instance: string | null, here: string | undefined): string {
  if (!instance) return "unknown";
  return instance === here ? `${instance} (this instance)` : instance;
}

const byInstance = <T extends { instance: string | null }>(rows: T[]) => [...rows].sort((a, b) => (a.instance ?? "~").localeCompare(b.instance ?? "~"));

export function RunningTables({ onAction }: { onAction: (action: AdminAction) => void }) {
  const running = useAdminRunning();
  const data: AdminRunning | undefined = running.data;
  const sandboxes = byInstance(data?.sandboxes ?? []);
  const answers = byInstance(data?.answers ?? []);
  return (
    <>
      <AdminSection
        title="Running sandboxes"
        query={running}
        empty={sandboxes.length ? null : "No sandbox is running."}
        head={["Instance", "Project", "Owner", "Last used", ""]}
      >
        {sandboxes.map((s) => (
          <tr key={s.sandboxId} data-testid="admin-sandbox">
            <td className={`${cell} font-mono text-xs`}>{instanceLabel(s.instance, data?.instance)}</td>
            <td className={cell}>{s.projectName}</td>
            <td className={cell}>{s.ownerEmail ?? s.ownerId}</td>
            <td className={cell}>{s.usedAt ? formatRelativeTime(s.usedAt) : "—"}</td>
            <td className={`${cell} text-right`}>
              <Button size="sm" variant="outline" onClick={() => onAction({ kind: "stopSandbox", projectId: s.projectId, label: s.projectName })}>
                Stop
              </Button>
            </td>
          </tr>
        ))}
      </AdminSection>
      <AdminSection
        title="Running answers"
        query={running}
        empty={answers.length ? null : "No answer is being written."}
        head={["Instance", "Project", "Owner", "Started", ""]}
      >
        {answers.map((a) => (
          <tr key={a.messageId} data-testid="admin-answer">
            <td className={`${cell} font-mono text-xs`}>{instanceLabel(a.instance, data?.instance)}</td>
            <td className={cell}>{a.projectName}</td>
            <td className={cell}>{a.ownerEmail ?? a.ownerId}</td>
            <td className={cell}>{formatRelativeTime(a.startedAt)}</td>
            <td className={`${cell} text-right`}>
              <Button size="sm" variant="outline" onClick={() => onAction({ kind: "stopRun", projectId: a.projectId, label: a.projectName })}>
                Stop
              </Button>
            </td>
          </tr>
        ))}
      </AdminSection>
    </>
  );
}
