/** The assistant's reasoning, under 'Extended Thinking': collapsed, open while it is being written. */
import { Disclosure, DisclosureButton, DisclosurePanel } from "@headlessui/react";
import { cn } from "../../../lib/cn";
import { BrainIcon, ChevronDownIcon } from "./icons";

export function ThinkingSection({ thinking, live }: { thinking: string; live: boolean }) {
  return (
    <Disclosure as="div" defaultOpen={live} className="rounded-lg border border-dashed bg-muted/30" data-testid="thinking">
      {({ open }) => (
        <>
          <DisclosureButton className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-xs font-medium text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <BrainIcon className="size-3.5" />
            Extended Thinking
            <ChevronDownIcon className={cn("ml-auto size-3.5 transition-transform", open && "rotate-180")} />
          </DisclosureButton>
          <DisclosurePanel className="max-h-80 overflow-y-auto border-t border-dashed px-3 py-2 text-xs leading-relaxed whitespace-pre-wrap text-muted-foreground">
            {thinking}
          </DisclosurePanel>
        </>
      )}
    </Disclosure>
  );
}
