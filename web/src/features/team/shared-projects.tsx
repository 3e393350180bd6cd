/**
 * /projects' "Shared with me": the projects others own that I am in, each with its owner's name and my role,
 * and Leave in one click (a small dialog confirms it; a toast says it is done or why not).
 */
import type { SharedProject } from "@shared/schemas/members";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { describeError } from "../../api/api-error";
import { queries } from "../../api/queries";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { toast } from "../../components/ui/use-toast";
import { formatRelativeTime } from "../../lib/relative-time";
import { useAuth } from "../auth/use-auth";
import { projectPath } from "../projects/project-views";
import { PROJECT_LIST_POLL_MS } from "../projects/use-projects";
import { useLeaveProject } from "./use-members";

export function SharedProjects() {
  const shared = useQuery({ ...queries.sharedProjects(), refetchInterval: PROJECT_LIST_POLL_MS, refetchOnWindowFocus: true });
  const [leaving, setLeaving] = useState<SharedProject | null>(null);
  if (!shared.data?.length) return null;
  return (
    <section className="mt-10" aria-labelledby="shared-heading" data-testid="shared-projects">
      <h2 id="shared-heading" className="mb-4 text-lg font-semibold">
        Shared with me
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {shared.data.map((p) => (
          <li key={p.id} className="flex flex-col rounded-lg border bg-card" data-testid="shared-project-card">
            <Link
              href={projectPath(p.id, "chat")}
              className="flex flex-1 flex-col rounded-lg p-5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <h3 className="truncate font-semibold" data-testid="shared-project-name">
                {p.name}
              </h3>
              <p className="mt-1 text-sm text-muted-foreground" data-testid="shared-project-owner">
                {p.ownerName}'s project · you are {p.role === "editor" ? "an editor" : "a viewer"}
              </p>
              <time dateTime={p.updatedAt} className="mt-4 text-xs text-muted-foreground">
                Updated {formatRelativeTime(p.updatedAt)}
              </time>
            </Link>
            <div className="flex justify-end border-t px-3 py-2">
              <Button variant="ghost" size="sm" onClick={() => setLeaving(p)} aria-label={`Leave ${p.name}`}>
                Leave
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <LeaveDialog project={leaving} onClose={() => setLeaving(null)} />
    </section>
  );
}

function LeaveDialog({ project, onClose }: { project: SharedProject | null; onClose: () => void }) {
  const { user } = useAuth();
  const leave = useLeaveProject();
  const confirm = () => {
    const email = user?.email;
    if (!project || !email) return;
    leave.mutate(
      { projectId: project.id, email },
      {
        onSuccess: () => (toast({ title: "You left the project", description: project.name }), onClose()),
        onError: (err) => toast({ title: "Could not leave the project", description: describeError(err), variant: "destructive" }),
      },
    );
  };
  return (
    <Dialog
      open={project !== null}
      onClose={onClose}
      title="Leave project?"
      description={project ? `You will no longer see ${project.name}; its owner can invite you again.` : undefined}
    >
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="destructive" size="sm" onClick={confirm} disabled={leave.isPending} data-testid="confirm-leave">
          Leave
        </Button>
      </div>
    </Dialog>
  );
}
