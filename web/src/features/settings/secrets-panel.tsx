/**
 * The Secrets panel of a project's settings: the names it holds (values are write-only: never shown, only
 * replaced), a form to add or replace one, and delete. Each process in the sandbox gets them as environment
 * variables; the server's reason shows when a name or value is refused.
 */
import { useState, type FormEvent } from "react";
import { describeError } from "../../api/api-error";
import { Button } from "../../components/ui/button";
import { Input, Label } from "../../components/ui/field";
import { TrashIcon } from "../../components/ui/icons";
import { Spinner } from "../../components/ui/spinner";
import { useSecrets } from "./use-secrets";

export function SecretsPanel({ projectId }: { projectId: string }) {
  const { list, set, remove } = useSecrets(projectId);
  const [name, setName] = useState("");
  const [value, setValue] = useState("");

  const submit = (e: FormEvent) => {
    e.preventDefault();
    set.mutate({ name: name.trim(), value }, { onSuccess: () => (setName(""), setValue("")) });
  };
  const failure = set.error ?? remove.error;

  return (
    <section aria-labelledby="secrets-heading" data-testid="secrets-panel">
      <h3 id="secrets-heading" className="text-sm font-semibold">
        Secrets
      </h3>
      <p className="mt-1 text-sm text-muted-foreground">
        Environment variables for every process in the sandbox (your app, terminals, the agent's commands). Values are never shown again, and the AI never sees
        them.
      </p>
      {list.isPending ? (
        <Spinner className="mt-3 size-5" />
      ) : list.isError ? (
        <p role="alert" className="mt-3 text-sm text-destructive">
          {describeError(list.error)}
        </p>
      ) : list.data.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">No secrets yet.</p>
      ) : (
        <ul className="mt-3 divide-y rounded-md border" data-testid="secret-list">
          {list.data.map((s) => (
            <li key={s.name} className="flex items-center gap-2 px-3 py-2 text-sm">
              <code className="flex-1 truncate font-mono">{s.name}</code>
              <span className="text-xs text-muted-foreground">updated {new Date(s.updatedAt).toLocaleString()}</span>
              <Button variant="outline" size="sm" onClick={() => (setName(s.name), setValue(""))} aria-label={`Replace ${s.name}`}>
                Replace
              </Button>
              <Button variant="ghost" size="icon" onClick={() => remove.mutate(s.name)} aria-label={`Delete ${s.name}`} disabled={remove.isPending}>
                <TrashIcon />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="mt-4 grid gap-3" data-testid="secret-form">
        <div>
          <Label htmlFor="secret-name">Name</Label>
          <Input id="secret-name" value={name} onChange={(e) => setName(e.target.value.toUpperCase())} placeholder="OPENWEATHER_API_KEY" autoComplete="off" />
        </div>
        <div>
          <Label htmlFor="secret-value">Value</Label>
          <Input id="secret-value" type="password" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="new-password" />
        </div>
        {failure && (
          <p role="alert" className="text-sm text-destructive">
            {describeError(failure)}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" size="sm" disabled={!name.trim() || !value || set.isPending}>
            {set.isPending && <Spinner className="size-4" />}
            Save secret
          </Button>
        </div>
      </form>
    </section>
  );
}
