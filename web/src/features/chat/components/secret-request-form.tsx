/**
 * The inline form for an agent's request_secret: the name, the agent's reason and a password field. The
 * value goes from here straight to `PUT /api/projects/{id}/secrets/{name}` (never into the chat or to the
 * model); Decline tells the waiting run no. The run hears either over the server's event bus.
 */
import { useState, type FormEvent } from "react";
import { api } from "../../../api/endpoints";
import { describeError } from "../../../api/api-error";
import { Button } from "../../../components/ui/button";
import { Input, Label } from "../../../components/ui/field";
import { LockIcon } from "../../../components/ui/icons";

export function SecretRequestForm({ projectId, name, reason }: { projectId: string; name: string; reason: string }) {
  const [value, setValue] = useState("");
  const [state, setState] = useState<"idle" | "saving" | "saved" | "declined">("idle");
  const [error, setError] = useState<string | null>(null);

  const answer = async (work: () => Promise<unknown>, done: "saved" | "declined") => {
    setState("saving");
    setError(null);
    try {
      await work();
      setValue("");
      setState(done);
    } catch (err) {
      setError(describeError(err));
      setState("idle");
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value) void answer(() => api.secrets.set(projectId, name, value), "saved");
  };

  return (
    <form onSubmit={submit} className="rounded-lg border bg-card p-4" data-testid="secret-request" aria-label={`Secret ${name} requested`}>
      <p className="flex items-center gap-2 text-sm font-medium">
        <LockIcon className="size-4" />
        The agent asks for a secret: <code className="font-mono">{name}</code>
      </p>
      <p className="mt-1 text-sm text-muted-foreground">{reason}</p>
      {state === "saved" || state === "declined" ? (
        <p className="mt-3 text-sm" role="status">
          {state === "saved" ? "Saved. The agent continues with it (it never sees the value)." : "Declined. The agent continues without it."}
        </p>
      ) : (
        <>
          <div className="mt-3">
            <Label htmlFor="secret-request-value">Value</Label>
            <Input id="secret-request-value" type="password" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="new-password" />
          </div>
          {error && (
            <p role="alert" className="mt-2 text-sm text-destructive">
              {error}
            </p>
          )}
          <div className="mt-3 flex justify-end gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={state === "saving"}
              onClick={() => void answer(() => api.secrets.decline(projectId, name), "declined")}
            >
              Decline
            </Button>
            <Button type="submit" size="sm" disabled={!value || state === "saving"}>
              Save secret
            </Button>
          </div>
        </>
      )}
    </form>
  );
}
