/** "Save version" at the top of History: a name for the files as they are now. Refusals are toasts. */
import { MAX_VERSION_LABEL_LENGTH, type VersionSummary } from "@shared/schemas/versions";
import { type FormEvent, useState } from "react";
import { describeError } from "../../../api/api-error";
import { Button } from "../../../components/ui/button";
import { Input } from "../../../components/ui/field";
import { toast } from "../../../components/ui/use-toast";
import { useSaveVersion } from "../use-save-version";

export function SaveVersionForm({ projectId, onSaved }: { projectId: string; onSaved: (version: VersionSummary) => void }) {
  const [label, setLabel] = useState("");
  const save = useSaveVersion(projectId);
  const name = label.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name || save.isPending) return;
    save.mutate(name, {
      onSuccess: (version) => {
        setLabel("");
        toast({ title: "Version saved", description: `"${version.label}" can be restored from History.` });
        onSaved(version);
      },
      onError: (err) => toast({ title: "Save failed", description: describeError(err), variant: "destructive" }),
    });
  };

  return (
    <form onSubmit={submit} className="mb-3 flex gap-2" data-testid="save-version-form">
      <Input
        aria-label="Version name"
        placeholder="Name this version"
        value={label}
        maxLength={MAX_VERSION_LABEL_LENGTH}
        onChange={(e) => setLabel(e.target.value)}
        className="h-8"
      />
      <Button type="submit" size="sm" disabled={!name || save.isPending} className="shrink-0">
        Save version
      </Button>
    </form>
  );
}
