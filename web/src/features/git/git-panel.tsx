/**
 * The Git panel (from the Files screen and the chat header): connect a remote (URL, branch, username,
 * token, auto-push), then its status with ahead and behind, push with a message, pull, the last commits,
 * and disconnect. A push the remote refuses because it moved on offers "Push anyway", confirmed first.
 * Every failure shows the server's reason (refused credentials, a conflict's files, a refused address).
 */
import type { GitStatus } from "@shared/schemas/git";
import { type FormEvent, useState } from "react";
import { ApiError, describeError } from "../../api/api-error";
import { Button } from "../../components/ui/button";
import { Input, Label } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { type RemoteValues, RemoteFields } from "./remote-fields";
import { useGit } from "./use-git";

type Git = ReturnType<typeof useGit>;

export function GitPanel({ projectId }: { projectId: string }) {
  const git = useGit(projectId, true);
  if (git.status.isPending) return <Spinner className="size-5" />;
  if (git.status.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {describeError(git.status.error)}
      </p>
    );
  }
  return git.status.data ? <Connected git={git} status={git.status.data} /> : <ConnectForm git={git} />;
}

function ConnectForm({ git, status }: { git: Git; status?: GitStatus }) {
  const [remote, setRemote] = useState<RemoteValues>({ url: status?.url ?? "", branch: status?.branch ?? "main", username: status?.username ?? "", token: "" });
  const { url, branch, username, token } = remote;
  const [autoPush, setAutoPush] = useState(status?.autoPush ?? false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    git.connect.mutate({
      url: url.trim(),
      branch: branch.trim() || undefined,
      username: username.trim() || undefined,
      // Reconnecting with the token field empty keeps the stored token.
      ...(token ? { token } : {}),
      autoPush,
    });
  };
  return (
    <form onSubmit={submit} className="grid gap-3" data-testid="git-connect-form">
      <p className="text-sm text-muted-foreground">
        Connect an HTTPS git remote (GitHub, GitLab, Gitea, Bitbucket or any smart-HTTP server). The token is stored encrypted and is never shown again, nor
        given to the AI or the sandbox.
      </p>
      <RemoteFields
        idPrefix="git"
        values={remote}
        onChange={setRemote}
        urlPlaceholder="https://gitea.example.com/me/app.git"
        tokenLabel={`Access token${status?.hasToken ? " (leave empty to keep the stored one)" : ""}`}
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={autoPush} onChange={(e) => setAutoPush(e.target.checked)} data-testid="git-auto-push" />
        Push automatically after every agent run that changes files
      </label>
      {git.connect.isError && (
        <p role="alert" className="text-sm text-destructive" data-testid="git-error">
          {describeError(git.connect.error)}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={!url.trim() || git.connect.isPending} data-testid="git-connect">
          {git.connect.isPending && <Spinner className="size-4" />}
          {status ? "Save" : "Connect"}
        </Button>
      </div>
    </form>
  );
}

const STATUS_TEXT: Record<GitStatus["status"], string> = {
  up_to_date: "Up to date",
  ahead: "Changes to push",
  behind: "The remote has new commits",
  diverged: "Both sides changed",
  unreachable: "The remote could not be reached",
};

function Connected({ git, status }: { git: Git; status: GitStatus }) {
  const [message, setMessage] = useState("");
  const [editing, setEditing] = useState(false);
  const [confirmForce, setConfirmForce] = useState(false);
  const remoteMoved = git.push.error instanceof ApiError && git.push.error.status === 409;
  const failure = git.push.error ?? git.pull.error ?? git.disconnect.error;
  const busy = git.push.isPending || git.pull.isPending || git.disconnect.isPending;

  const push = (force = false) => {
    git.pull.reset();
    git.push.mutate(
      { message: message.trim() || undefined, ...(force ? { force: true } : {}) },
      {
        onSuccess: (r) => {
          setMessage("");
          setConfirmForce(false);
          toast({ title: r.pushed ? "Pushed" : "Nothing to push", description: r.commit ? `${status.branch} is at ${r.commit.slice(0, 7)}.` : undefined });
        },
      },
    );
  };
  const pull = () => {
    git.push.reset();
    git.pull.mutate(undefined, {
      onSuccess: (r) => {
        const notes = [
          r.merged.length ? `merged ${r.merged.join(", ")}` : "",
          r.skipped.length ? `skipped ${r.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}` : "",
          r.lfsPointers.length ? `Git LFS pointers kept as they are: ${r.lfsPointers.join(", ")}` : "",
        ].filter(Boolean);
        toast({
          title: r.upToDate ? "Already up to date" : `Pulled ${r.commit.slice(0, 7)}`,
          description: r.upToDate ? undefined : [`${r.written} written, ${r.deleted} deleted`, ...notes].join("; "),
        });
      },
    });
  };

  if (editing) {
    return (
      <div className="grid gap-3">
        <ConnectForm git={git} status={status} />
        <Button variant="ghost" size="sm" onClick={() => setEditing(false)}>
          Back
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-4" data-testid="git-status">
      <div className="text-sm">
        <div className="truncate font-mono" title={status.url}>
          {status.url}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-muted-foreground">
          <span>
            branch <code className="font-mono">{status.branch}</code>
          </span>
          <span data-testid="git-state">{STATUS_TEXT[status.status]}</span>
          <span data-testid="git-ahead">{status.ahead} ahead</span>
          <span data-testid="git-behind">{status.behind} behind</span>
          {status.autoPush && <span>auto-push on</span>}
        </div>
        {status.error && <p className="mt-1 text-destructive">{status.error}</p>}
      </div>

      <div className="grid gap-2">
        <Label htmlFor="git-message">Commit message (optional)</Label>
        <Input id="git-message" value={message} onChange={(e) => setMessage(e.target.value)} placeholder="The labels of the versions since the last push" />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" size="sm" onClick={pull} disabled={busy} data-testid="git-pull">
            {git.pull.isPending && <Spinner className="size-4" />}
            Pull
          </Button>
          <Button size="sm" onClick={() => push()} disabled={busy} data-testid="git-push">
            {git.push.isPending && <Spinner className="size-4" />}
            Push
          </Button>
        </div>
      </div>

      {failure && (
        <div role="alert" className="rounded-md border border-destructive/50 p-3 text-sm text-destructive" data-testid="git-error">
          {describeError(failure)}
          {remoteMoved && !confirmForce && (
            <div className="mt-2">
              <Button variant="outline" size="sm" onClick={() => setConfirmForce(true)}>
                Push anyway…
              </Button>
            </div>
          )}
          {confirmForce && (
            <div className="mt-2 text-foreground">
              <p>Your files replace the remote's in a new commit on top of it; the changes made there are undone (its history stays).</p>
              <div className="mt-2 flex gap-2">
                <Button variant="destructive" size="sm" onClick={() => push(true)} disabled={busy} data-testid="git-force-push">
                  Push anyway
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setConfirmForce(false)}>
                  Cancel
                </Button>
              </div>
            </div>
          )}
        </div>
      )}

      {status.commits.length > 0 && (
        <div>
          <h4 className="text-sm font-semibold">Last commits</h4>
          <ul className="mt-2 divide-y rounded-md border text-sm" data-testid="git-commits">
            {status.commits.map((c) => (
              <li key={c.oid} className="flex gap-2 px-3 py-2">
                <code className="font-mono text-muted-foreground">{c.oid.slice(0, 7)}</code>
                <span className="flex-1 truncate">{c.message.split("\n")[0]}</span>
                <span className="text-xs text-muted-foreground">
                  {c.author}, {new Date(c.date).toLocaleString()}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex justify-between">
        <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
          Settings
        </Button>
        <Button variant="ghost" size="sm" onClick={() => git.disconnect.mutate()} disabled={busy} data-testid="git-disconnect">
          Disconnect
        </Button>
      </div>
    </div>
  );
}
