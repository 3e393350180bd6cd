/**
 * The Publish dialog: the site name, Publish, the build's live log, the live URL (copy, open), the
 * deployment history with Roll back, and Unpublish (confirmed first). A failed build shows its log and "Fix
 * with AI"; one stopped by the secret scan lists its findings with "Publish anyway" (scan-findings.tsx); files
 * changed since the live deployment show "Unpublished changes". Own domains: own-domains.tsx. A cleared site
 * name stays empty and asks for one (site-name.ts).
 */
import type { Deployment } from "@shared/schemas/publish";
import { useState } from "react";
import { describeError } from "../../api/api-error";
import { Button, buttonClasses } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Input, Label } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { copyToClipboard } from "../../lib/copy-to-clipboard";
import { formatRelativeTime } from "../../lib/relative-time";
import { sendToChat } from "../chat/chat-outbox";
import { fixRequest } from "./fix-request";
import { OwnDomains } from "./own-domains";
import { ScanFindings } from "./scan-findings";
import { siteNameProblem, siteNameShown } from "./site-name";
import { useActivateDeployment, useBuildLog, useDeploymentLogs, useDeployments, usePublish, useSiteState, useUnpublish } from "./use-publish";

export function PublishDialog({ projectId, open, onClose }: { projectId: string; open: boolean; onClose: () => void }) {
  const site = useSiteState(projectId, open);
  const deployments = useDeployments(projectId, open);
  const build = useBuildLog(projectId);
  const publish = usePublish(projectId, build.start);
  const activate = useActivateDeployment(projectId);
  const unpublish = useUnpublish(projectId);
  // null until the user types: until then the field shows the site's name or the suggested one.
  const [typed, setTyped] = useState<string | null>(null);
  const [confirmingUnpublish, setConfirmingUnpublish] = useState(false);
  const slug = siteNameShown(typed, site.data);

  const latest = deployments.data?.[0];
  const building = publish.isPending || build.progress.status === "building" || latest?.status === "building";
  const problem = siteNameProblem(typed, slug);
  const failed =
    build.progress.status === "failed"
      ? { log: build.progress.log, error: build.progress.error }
      : latest?.status === "failed" && !building
        ? { log: latest.buildLog ?? "", error: null }
        : null;
  const log = build.progress.log || (building ? (latest?.buildLog ?? "") : "");
  const liveUrl = site.data?.liveDeploymentId ? site.data.url : null;

  const onPublish = (allowFindings?: boolean) =>
    publish.mutate(
      { slug: slug || undefined, allowFindings },
      { onError: (err) => toast({ title: "Publish failed", description: describeError(err), variant: "destructive" }) },
    );
  // The newest build was stopped by the secret scan (its findings come with the deployment list).
  const findings = failed && latest?.status === "failed" && !latest.findingsAllowed ? latest.findings : undefined;

  return (
    <Dialog open={open} onClose={onClose} title="Publish" description="Build the app and put it on a public address.">
      <div className="space-y-4 text-sm" data-testid="publish-dialog">
        <div className="space-y-1.5">
          <Label htmlFor="publish-slug">Site name</Label>
          <div className="flex items-center gap-2">
            <Input
              id="publish-slug"
              value={slug}
              onChange={(e) => setTyped(e.target.value.toLowerCase())}
              aria-invalid={Boolean(problem)}
              aria-describedby={problem ? "publish-slug-problem" : undefined}
              placeholder="my-site"
            />
            <Button
              onClick={() => onPublish()}
              disabled={building || Boolean(problem) || !slug}
              data-testid="publish-start"
              className="shrink-0 whitespace-nowrap"
            >
              {building ? <Spinner className="size-4" /> : null}
              <span>{building ? "Publishing…" : liveUrl ? "Publish again" : "Publish"}</span>
            </Button>
          </div>
          {problem && (
            <p id="publish-slug-problem" className="text-destructive" data-testid="publish-slug-problem">
              {problem}
            </p>
          )}
        </div>

        {liveUrl && (
          <div className="flex items-center gap-2 rounded-md border p-2" data-testid="publish-live-url">
            <span className="rounded bg-green-600/15 px-1.5 py-0.5 text-xs font-medium text-green-700 dark:text-green-400">Live</span>
            <a href={liveUrl} target="_blank" rel="noopener noreferrer" className="min-w-0 flex-1 truncate font-mono text-xs underline">
              {liveUrl}
            </a>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void copyToClipboard(liveUrl).then((ok) => ok && toast({ title: "Copied", description: liveUrl }))}
            >
              Copy
            </Button>
            <a href={liveUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses("ghost", "sm")}>
              Open
            </a>
          </div>
        )}
        {site.data?.unpublishedChanges && !building && (
          <p className="text-amber-600 dark:text-amber-400" data-testid="publish-unpublished-changes">
            Unpublished changes
          </p>
        )}

        {(building || log) && (
          <pre className="max-h-48 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap" data-testid="publish-log" aria-live="polite">
            {log || "Starting the build…"}
          </pre>
        )}

        {failed && (
          <div role="alert" className="space-y-2 rounded-md border border-destructive/50 p-2" data-testid="publish-failed">
            <p className="font-medium text-destructive">
              {findings?.length ? "The secret scan stopped this publish." : (failed.error ?? "The build failed.")} The live site was not changed.
            </p>
            {findings?.length ? (
              <ScanFindings findings={findings} busy={building} onPublishAnyway={() => onPublish(true)} />
            ) : (
              !build.progress.log && failed.log && <pre className="max-h-40 overflow-auto font-mono text-xs whitespace-pre-wrap">{failed.log}</pre>
            )}
            <Button
              variant="outline"
              size="sm"
              onClick={() =>
                void sendToChat(projectId, fixRequest(failed.log)).then(
                  () => {
                    toast({ title: "Sent to the chat", description: "The AI is looking at the build errors." });
                    onClose();
                  },
                  (err) => toast({ title: "Failed to send message", description: describeError(err), variant: "destructive" }),
                )
              }
            >
              Fix with AI
            </Button>
          </div>
        )}

        {site.data?.liveDeploymentId && !building && <LiveLogs projectId={projectId} deploymentId={site.data.liveDeploymentId} />}

        {deployments.data && deployments.data.length > 0 && (
          <History
            deployments={deployments.data}
            busy={activate.isPending}
            onRollBack={(id) =>
              activate.mutate(id, { onError: (err) => toast({ title: "Roll back failed", description: describeError(err), variant: "destructive" }) })
            }
          />
        )}

        <OwnDomains projectId={projectId} open={open} />

        {site.data?.slug && (
          <UnpublishControl
            url={liveUrl}
            confirming={confirmingUnpublish}
            busy={unpublish.isPending}
            onAsk={() => setConfirmingUnpublish(true)}
            onCancel={() => setConfirmingUnpublish(false)}
            onConfirm={() =>
              unpublish.mutate(undefined, {
                onSuccess: () => {
                  setConfirmingUnpublish(false);
                  toast({ title: "Unpublished", description: "The site no longer answers." });
                },
                onError: (err) => toast({ title: "Unpublish failed", description: describeError(err), variant: "destructive" }),
              })
            }
          />
        )}
      </div>
    </Dialog>
  );
}

/** Unpublish, then a confirmation in place: taking a site offline breaks every link to it. */
function UnpublishControl(p: { url: string | null; confirming: boolean; busy: boolean; onAsk: () => void; onCancel: () => void; onConfirm: () => void }) {
  if (!p.confirming || !p.url) {
    return (
      <div className="flex justify-end">
        <Button variant="destructive" size="sm" disabled={p.busy || !p.url} onClick={p.onAsk}>
          Unpublish
        </Button>
      </div>
    );
  }
  return (
    <div role="alertdialog" aria-label="Confirm unpublish" className="space-y-2 rounded-md border border-destructive/50 p-2" data-testid="unpublish-confirm">
      <p>
        Take the site offline? <span className="font-mono text-xs">{p.url}</span> will stop answering until you publish again.
      </p>
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={p.onCancel} disabled={p.busy}>
          Cancel
        </Button>
        <Button variant="destructive" size="sm" onClick={p.onConfirm} disabled={p.busy}>
          {p.busy ? <Spinner className="size-4" /> : null}
          <span>Yes, unpublish</span>
        </Button>
      </div>
    </div>
  );
}

const STATUS_LABEL: Record<Deployment["status"], string> = { building: "Building", live: "Live", failed: "Failed", superseded: "Previous" };

function History({ deployments, busy, onRollBack }: { deployments: Deployment[]; busy: boolean; onRollBack: (id: string) => void }) {
  return (
    <div>
      <h3 className="mb-1 font-medium">History</h3>
      <ul className="max-h-40 divide-y overflow-auto rounded-md border" data-testid="publish-history">
        {deployments.map((d) => (
          <li key={d.id} className="flex items-center gap-2 px-2 py-1.5">
            <span className="w-16 text-xs font-medium">{STATUS_LABEL[d.status]}</span>
            {d.findingsAllowed && (
              <span
                className="rounded bg-amber-500/15 px-1.5 py-0.5 text-xs text-amber-700 dark:text-amber-400"
                title={d.findings?.map((f) => `${f.file}:${f.line} ${f.rule}`).join("\n")}
              >
                Published with {d.findings?.length ?? 0} secret finding{d.findings?.length === 1 ? "" : "s"}
              </span>
            )}
            <time dateTime={d.createdAt} className="flex-1 text-xs text-muted-foreground">
              {formatRelativeTime(d.createdAt)} · {(d.bytes / 1024).toFixed(0)} KB
            </time>
            {d.status === "superseded" && (
              <Button variant="outline" size="sm" disabled={busy} onClick={() => onRollBack(d.id)}>
                Roll back
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The live deployment's logs: a server's own output (its last 1,000 lines), folded away until opened. */
function LiveLogs({ projectId, deploymentId }: { projectId: string; deploymentId: string }) {
  const [open, setOpen] = useState(false);
  const logs = useDeploymentLogs(projectId, open ? deploymentId : null);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="publish-live-logs">
      <summary className="cursor-pointer font-medium">Logs</summary>
      <pre className="mt-2 max-h-48 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap">
        {logs.data ? logs.data.lines.join("\n") || "No lines yet." : "Loading…"}
      </pre>
    </details>
  );
}
