/**
 * Own domains in the Publish dialog: add a domain, see the TXT record to create (name and value, each with
 * Copy), Verify (its error, such as "record not found: …", shown under the domain), the verified ones with their
 * address, and Remove. The name is checked as it is typed with the server's own shape rules.
 */
import type { SiteDomain } from "@shared/schemas/domains";
import { domainShapeProblem, normalizeDomain } from "@shared/schemas/domains";
import { useState } from "react";
import { describeError } from "../../api/api-error";
import { Button } from "../../components/ui/button";
import { Input, Label } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { copyToClipboard } from "../../lib/copy-to-clipboard";
import { useAddDomain, useDomains, useRemoveDomain, useVerifyDomain } from "./use-domains";

export function OwnDomains({ projectId, open }: { projectId: string; open: boolean }) {
  const domains = useDomains(projectId, open);
  const add = useAddDomain(projectId);
  const [typed, setTyped] = useState("");
  const name = normalizeDomain(typed);
  const problem = typed.trim() ? domainShapeProblem(name) : null;

  const onAdd = () =>
    add.mutate(name, {
      onSuccess: () => setTyped(""),
      onError: (err) => toast({ title: "Could not add the domain", description: describeError(err), variant: "destructive" }),
    });

  return (
    <section className="space-y-2" data-testid="own-domains" aria-labelledby="own-domains-title">
      <h3 id="own-domains-title" className="font-medium">
        Own domains
      </h3>
      <div className="space-y-1.5">
        <Label htmlFor="own-domain">Serve the site on a domain of yours too</Label>
        <form
          className="flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (name && !problem) onAdd();
          }}
        >
          <Input
            id="own-domain"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="shop.example.com"
            aria-invalid={Boolean(problem)}
            aria-describedby={problem ? "own-domain-problem" : undefined}
          />
          <Button type="submit" variant="outline" disabled={add.isPending || !name || Boolean(problem)} data-testid="own-domain-add" className="shrink-0">
            {add.isPending ? <Spinner className="size-4" /> : null}
            <span>Add</span>
          </Button>
        </form>
        {problem && (
          <p id="own-domain-problem" className="text-destructive">
            {problem}
          </p>
        )}
      </div>
      {domains.data && domains.data.length > 0 && (
        <ul className="divide-y rounded-md border" data-testid="own-domain-list">
          {domains.data.map((d) => (
            <DomainRow key={d.domain} projectId={projectId} domain={d} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center gap-2">
      <span className="w-12 shrink-0 text-xs text-muted-foreground">{label}</span>
      <code className="min-w-0 flex-1 truncate rounded bg-muted px-1 py-0.5 font-mono text-xs" title={value}>
        {value}
      </code>
      <Button variant="ghost" size="sm" onClick={() => void copyToClipboard(value).then((ok) => ok && toast({ title: "Copied", description: value }))}>
        Copy
      </Button>
    </div>
  );
}

function DomainRow({ projectId, domain: d }: { projectId: string; domain: SiteDomain }) {
  const verify = useVerifyDomain(projectId);
  const remove = useRemoveDomain(projectId);
  const [error, setError] = useState<string | null>(null);
  const busy = verify.isPending || remove.isPending;
  return (
    <li className="space-y-1.5 p-2" data-testid="own-domain">
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-mono text-xs">{d.domain}</span>
        {d.status === "verified" ? (
          <span className="rounded bg-green-600/15 px-1.5 py-0.5 text-xs font-medium text-green-700 dark:text-green-400">Verified</span>
        ) : (
          <span className="rounded bg-amber-500/15 px-1.5 py-0.5 text-xs font-medium text-amber-700 dark:text-amber-400">Pending</span>
        )}
        {d.status === "pending" && (
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            data-testid="own-domain-verify"
            onClick={() => {
              setError(null);
              verify.mutate(d.domain, {
                onSuccess: () => toast({ title: "Domain verified", description: `${d.domain} now serves the live site.` }),
                onError: (err) => setError(describeError(err)),
              });
            }}
          >
            {verify.isPending ? <Spinner className="size-4" /> : null}
            <span>Verify</span>
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          disabled={busy}
          onClick={() =>
            remove.mutate(d.domain, { onError: (err) => toast({ title: "Could not remove it", description: describeError(err), variant: "destructive" }) })
          }
        >
          Remove
        </Button>
      </div>
      {d.status === "pending" ? (
        <div className="space-y-1">
          <p className="text-xs text-muted-foreground">Create this TXT record at your DNS provider, then Verify:</p>
          <CopyValue label="Name" value={d.txtName} />
          <CopyValue label="Value" value={d.txtValue} />
        </div>
      ) : (
        <a href={d.url} target="_blank" rel="noopener noreferrer" className="block truncate font-mono text-xs underline">
          {d.url}
        </a>
      )}
      {error && (
        <p role="alert" className="text-xs text-destructive" data-testid="own-domain-error">
          {error}
        </p>
      )}
    </li>
  );
}
