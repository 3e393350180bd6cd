/** The reasoning switch: off by default, disabled while a message is being sent. */
import { Field, Label, Switch } from "@headlessui/react";
import { cn } from "../../../lib/cn";
import { BrainIcon } from "./icons";

export function ReasoningToggle({ checked, onChange, disabled }: { checked: boolean; onChange: (on: boolean) => void; disabled: boolean }) {
  return (
    <Field disabled={disabled} className="flex items-center gap-2 data-disabled:opacity-50">
      <Switch
        checked={checked}
        onChange={onChange}
        data-testid="reasoning-toggle"
        title="Let the model think step by step before answering (shown as Extended Thinking)"
        className={cn(
          "group relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border border-transparent transition-colors",
          "bg-muted-foreground/40 data-checked:bg-primary data-disabled:cursor-not-allowed",
          "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        )}
      >
        <span className="inline-block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-4" />
      </Switch>
      <Label className="flex cursor-pointer items-center gap-1 text-xs text-muted-foreground select-none data-disabled:cursor-not-allowed">
        <BrainIcon className="size-3.5" />
        Reasoning
      </Label>
    </Field>
  );
}
