/**
 * The tools a run called: one row per call with the tool's icon, its summary and a spinner
 * (in progress) or a check (completed). A row with a result opens to show it.
 */
import type { ToolCall } from "@shared/schemas/message";
import { type ComponentType, type SVGProps, useState } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { displayedToolStatus, type ToolKind, toolKind } from "../tool-calls";
import { BoilerplateIcon, CheckCircleIcon, ChevronDownIcon, FileEditIcon, FilePlusIcon, PlayIcon, ShellIcon, WrenchIcon, XIcon } from "./icons";

const TOOL_ICONS: Record<ToolKind, ComponentType<SVGProps<SVGSVGElement>>> = {
  create_boilerplate: BoilerplateIcon,
  write_file: FilePlusIcon,
  edit_file: FileEditIcon,
  run_shell: ShellIcon,
  run_code: PlayIcon,
  default: WrenchIcon,
};

export function ToolBadges({ calls }: { calls: ToolCall[] }) {
  if (!calls.length) return null;
  return (
    <ul className="space-y-1.5" aria-label="Tools used">
      {calls.map((call, i) => (
        <ToolBadge key={i} call={call} />
      ))}
    </ul>
  );
}

function ToolBadge({ call }: { call: ToolCall }) {
  const [open, setOpen] = useState(false);
  const status = displayedToolStatus(call);
  const kind = toolKind(call.name);
  const Icon = TOOL_ICONS[kind];
  const result = call.result?.trim();
  const label = call.summary || call.name;
  // The tools' results start so when nothing was done (a refusal, a failure): the badge must not show a check.
  const failed = status === "completed" && Boolean(result?.startsWith("Error:"));

  const head = (
    <>
      <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground" data-icon={kind}>
        <Icon className="size-3.5" />
      </span>
      <span className="min-w-0 flex-1 truncate font-mono text-xs" title={label}>
        {label}
      </span>
      {status === "in_progress" ? (
        <Spinner className="size-3.5 border-[1.5px] text-muted-foreground" />
      ) : failed ? (
        <XIcon className="size-4 shrink-0 text-destructive" label="Failed" />
      ) : (
        <CheckCircleIcon className="size-4 shrink-0 text-emerald-500" label="Completed" />
      )}
      {result && <ChevronDownIcon className={cn("size-3.5 shrink-0 text-muted-foreground transition-transform", open && "rotate-180")} />}
    </>
  );

  return (
    <li data-testid="tool-badge" data-tool={call.name} data-status={status} data-outcome={failed ? "error" : undefined} className="rounded-lg border bg-card">
      {result ? (
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="flex w-full items-center gap-2 rounded-lg px-2 py-1.5 text-left hover:bg-muted/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {head}
        </button>
      ) : (
        <div className="flex items-center gap-2 px-2 py-1.5">{head}</div>
      )}
      {open && result && (
        <pre className="max-h-64 overflow-auto border-t px-3 py-2 font-mono text-[11px] leading-relaxed whitespace-pre-wrap text-muted-foreground">
          {result}
        </pre>
      )}
    </li>
  );
}
