/**
 * The model picker in the chat input: the models the server offers (MODELS), the project's choice
 * checked. Shown only when there is a choice to make; disabled while a message is being sent.
 */
import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from "@headlessui/react";
import { cn } from "../../../lib/cn";
import { CheckIcon, ChevronUpDownIcon } from "./icons";

export type ModelPickerProps = { model: string | undefined; models: string[]; onChange: (model: string) => void; disabled: boolean };

export function ModelPicker({ model, models, onChange, disabled }: ModelPickerProps) {
  if (!model || models.length < 2) return null;
  return (
    <Listbox value={model} onChange={onChange} disabled={disabled}>
      <ListboxButton
        data-testid="model-picker"
        aria-label={`Model: ${model}`}
        title="The model this project's agent uses"
        className={cn(
          "inline-flex h-7 min-w-0 items-center gap-1 rounded-full border px-2.5 text-xs text-muted-foreground transition-colors",
          "hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
          "data-disabled:cursor-not-allowed data-disabled:opacity-50",
        )}
      >
        <span className="max-w-[9rem] truncate sm:max-w-[14rem]">{model}</span>
        <ChevronUpDownIcon className="size-3 shrink-0" />
      </ListboxButton>
      <ListboxOptions
        anchor={{ to: "top start", gap: 6 }}
        data-testid="model-options"
        className="z-50 max-h-64 min-w-[12rem] overflow-y-auto rounded-lg border bg-card p-1 text-sm text-foreground shadow-lg focus:outline-none"
      >
        {models.map((m) => (
          <ListboxOption
            key={m}
            value={m}
            data-testid="model-option"
            className="group flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 select-none data-focus:bg-muted"
          >
            <CheckIcon className="invisible size-3.5 shrink-0 group-data-selected:visible" />
            <span className="truncate">{m}</span>
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  );
}
