/**
 * The interactive terminal's tab strip: several shells side by side in one project, each its own session.
 * Hidden tabs stay mounted, so switching never loses a session; closing a tab hangs its shell up (what it
 * started with `&` or `nohup` keeps running).
 */
import { useState } from "react";
import { CloseIcon, PlusIcon } from "../../../components/ui/icons";
import { cn } from "../../../lib/cn";
import { addTab, canAddTab, closeTab, firstTabs, MAX_TABS, selectTab } from "../terminal-tabs";
import { InteractiveTerminal } from "./interactive-terminal";

export function InteractiveTerminals({ projectId }: { projectId: string }) {
  const [state, setState] = useState(firstTabs);

  return (
    <div className="flex size-full flex-col gap-2" data-testid="interactive-terminals">
      <div className="flex items-center gap-1 overflow-x-auto" role="tablist" aria-label="Terminal sessions">
        {state.tabs.map((tab) => {
          const selected = tab.id === state.active;
          return (
            <div
              key={tab.id}
              className={cn(
                "flex shrink-0 items-center rounded-md border text-xs",
                selected ? "border-zinc-600 bg-zinc-800 text-zinc-100" : "border-transparent text-zinc-400 hover:bg-zinc-900",
              )}
            >
              <button type="button" role="tab" aria-selected={selected} className="px-2.5 py-1 font-mono" onClick={() => setState((s) => selectTab(s, tab.id))}>
                {tab.title}
              </button>
              <button
                type="button"
                aria-label={`Close ${tab.title}`}
                title={`Close ${tab.title}`}
                className="mr-1 rounded p-0.5 hover:bg-zinc-700"
                onClick={() => setState((s) => closeTab(s, tab.id))}
              >
                <CloseIcon className="size-3" />
              </button>
            </div>
          );
        })}
        <button
          type="button"
          aria-label="New terminal tab"
          title={canAddTab(state) ? "New terminal tab" : `At most ${MAX_TABS} terminals`}
          disabled={!canAddTab(state)}
          className="ml-1 shrink-0 rounded-md p-1 text-zinc-400 hover:bg-zinc-800 hover:text-zinc-100 disabled:opacity-40"
          onClick={() => setState(addTab)}
        >
          <PlusIcon className="size-4" />
        </button>
      </div>
      <div className="relative min-h-0 flex-1">
        {state.tabs.map((tab) => (
          <div key={tab.id} role="tabpanel" aria-label={tab.title} className={cn("absolute inset-0", tab.id !== state.active && "invisible")}>
            <InteractiveTerminal projectId={projectId} active={tab.id === state.active} label={tab.title} />
          </div>
        ))}
      </div>
    </div>
  );
}
