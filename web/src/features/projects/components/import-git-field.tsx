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
import { Input, Label } from "../../../components/ui/field";
import { cacheNewProject } from "../use-create-project";

type Props = { name: string; disabled: boolean; onImported: (project: Project, note: string) => void };

export function ImportGitField({ name, disabled, onImported }: Props) {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState("");
  const [branch, setBranch] = useState("");
  const [username, setUsername] = useState("");
  const [token, setToken] = useState("");
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
      <div>
        <Label htmlFor="import-git-url">Repository URL</Label>
        <Input id="import-git-url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://github.com/me/app.git" autoComplete="off" />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div>
          <Label htmlFor="import-git-branch">Branch</Label>
          <Input id="import-git-branch" value={branch} onChange={(e) => setBranch(e.target.value)} placeholder="main" autoComplete="off" />
        </div>
        <div>
          <Label htmlFor="import-git-username">Username (optional)</Label>
          <Input id="import-git-username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
        </div>
      </div>
      <div>
        <Label htmlFor="import-git-token">Access token (private repositories)</Label>
        <Input id="import-git-token" type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="new-password" />
      </div>
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
