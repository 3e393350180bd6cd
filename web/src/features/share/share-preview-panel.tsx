/**
 * "Share preview": links that open the project's live preview to anyone holding one, without signing in, and
 * nothing else of the project. Make one with an expiry, copy its URL (shown only once, right after it is made),
 * see the links that still work and revoke any; a revoked link answers 404 from its next request on.
 * Editors and the owner manage links; a viewer is told so (the API answers 403).
 */
import type { CreatedShareLink } from "@shared/schemas/share-links";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { projectKeys } from "../../api/query-keys";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { copyToClipboard } from "../../lib/copy-to-clipboard";

/** The expiry choices, in hours; null: until revoked. */
const EXPIRIES: { label: string; hours: number | null }[] = [
  { label: "1 hour", hours: 1 },
  { label: "1 day", hours: 24 },
  { label: "7 days", hours: 24 * 7 },
  { label: "30 days", hours: 24 * 30 },
  { label: "Until revoked", hours: null },
];

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function SharePreviewPanel({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const links = useQuery({ ...queries.shareLinks(projectId), retry: false });
  const [expiry, setExpiry] = useState("1");
  const [made, setMade] = useState<CreatedShareLink | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: projectKeys.shareLinks(projectId) });

  const create = useMutation({
    mutationFn: () => api.shareLinks.create(projectId, EXPIRIES[Number(expiry)]!.hours ?? undefined),
    onSuccess: (link) => (setMade(link), void refresh()),
    onError: (err) => toast({ title: "Link not made", description: describeError(err), variant: "destructive" }),
  });
  const revoke = useMutation({
    mutationFn: (linkId: string) => api.shareLinks.revoke(projectId, linkId),
    onSuccess: (_, linkId) => {
      if (made?.id === linkId) setMade(null);
      toast({ title: "Link revoked", description: "It no longer opens the preview." });
      void refresh();
    },
    onError: (err) => toast({ title: "Link not revoked", description: describeError(err), variant: "destructive" }),
  });

  if (links.error instanceof ApiError && links.error.status === 403) {
    return <p className="text-sm text-muted-foreground">Only the project's editors and owner can share its preview.</p>;
  }

  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="share-preview">
      <p className="text-muted-foreground">Anyone with a link sees the running app, without signing in. They cannot see files, chat or settings.</p>
      <div className="flex items-end gap-2">
        <label className="flex flex-1 flex-col gap-1">
          <span className="font-medium">Expires after</span>
          <select className="h-9 rounded-md border bg-background px-2" value={expiry} onChange={(e) => setExpiry(e.target.value)} aria-label="Expires after">
            {EXPIRIES.map((e, i) => (
              <option key={e.label} value={String(i)}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
        <Button size="sm" onClick={() => create.mutate()} disabled={create.isPending}>
          {create.isPending ? <Spinner className="size-4" /> : null}
          Create link
        </Button>
      </div>
      {made && (
        <div className="flex flex-col gap-1 rounded-md border bg-muted/40 p-2">
          <span className="text-xs text-muted-foreground">Copy it now: the link is not shown again.</span>
          <div className="flex items-center gap-2">
            <input readOnly value={made.url} aria-label="Share link URL" className="h-8 min-w-0 flex-1 rounded border bg-background px-2 font-mono text-xs" />
            <Button
              size="sm"
              variant="outline"
              onClick={async () => toast((await copyToClipboard(made.url)) ? { title: "Link copied" } : { title: "Copy failed", variant: "destructive" })}
            >
              Copy
            </Button>
          </div>
        </div>
      )}
      <section aria-label="Share links">
        <h3 className="mb-1 font-medium">Links that work</h3>
        {links.isPending ? (
          <Spinner className="size-4" />
        ) : links.data?.length ? (
          <ul className="flex flex-col divide-y rounded-md border">
            {links.data.map((l) => (
              <li key={l.id} className="flex items-center gap-2 px-2 py-1.5" data-testid="share-link-row">
                <span className="flex-1 text-xs">
                  Made {when(l.createdAt)}
                  {l.createdBy ? ` by ${l.createdBy}` : ""} · expires {when(l.expiresAt)}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => revoke.mutate(l.id)}
                  disabled={revoke.isPending}
                  aria-label={`Revoke the link made ${when(l.createdAt)}`}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">No links yet.</p>
        )}
      </section>
    </div>
  );
}
