/**
 * "Import from Git" in the New Project dialog: a repository's HTTPS URL (with branch, username and token
 * for a private one) becomes a project connected to it. The server's reason shows when it refuses (refused
 * credentials, a missing branch, a repository over the limits). Not a form of its own: it sits inside the
 * dialog's form, so its button submits nothing there.
 */
import type { Project } from "@shared/schemas/project";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError } from "../../../api/api-error";
import { api } from "../../../api/endpoints";
import { Button } from "../../../components/ui/button";
import { type RemoteValues, RemoteFields } from "../../git/remote-fields";
import { cacheNewProject } from "../use-create-project";

type Props = { name: string; disabled: boolean; onImported: (project: Project, note: string) => void };

export function ImportGitField({ name, disabled, onImported }: Props) {
  const [open, setOpen] = useState(false);
  const [remote, setRemote] = useState<RemoteValues>({ url: "", branch: "", username: "", token: "" });
  const { url, branch, username, token } = remote;
  const queryClient = useQueryClient();
  const importGit = useMutation({
    mutationFn: () =>
      api.projects.importGit({
        gitUrl: url.trim(),
        ...(branch.trim() ? { branch: branch.trim() } : {}),
        ...(username.trim() ? { username: username.trim() } : {}),
        ...(token ? { token } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
      }),
    onSuccess: ({ git, ...project }) => {
      cacheNewProject(queryClient, project);
      const skipped = git.skipped.length ? ` Skipped: ${git.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}.` : "";
      const lfs = git.lfsPointers.length ? ` Git LFS pointers kept as they are: ${git.lfsPointers.join(", ")}.` : "";
      onImported(project, `Imported at ${git.commit.slice(0, 7)}.${skipped}${lfs}`);
    },
  });

  if (!open) {
    return (
      <div className="flex items-center justify-between gap-3 border-t pt-4">
        <p className="text-sm text-muted-foreground">Or start from a git repository.</p>
        <Button variant="outline" onClick={() => setOpen(true)} disabled={disabled} className="shrink-0" data-testid="import-git-open">
          Import from Git
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-3 border-t pt-4" data-testid="import-git-field">
      <RemoteFields
        idPrefix="import-git"
        values={remote}
        onChange={setRemote}
        urlPlaceholder="https://github.com/me/app.git"
        tokenLabel="Access token (private repositories)"
      />
      {importGit.isError && (
        <p role="alert" className="text-sm text-destructive" data-testid="import-git-error">
          {describeError(importGit.error)}
        </p>
      )}
      <div className="flex justify-end">
        <Button onClick={() => importGit.mutate()} disabled={disabled || !url.trim() || importGit.isPending} data-testid="import-git">
          {importGit.isPending ? "Importing..." : "Import"}
        </Button>
      </div>
    </div>
  );
}
