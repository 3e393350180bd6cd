/**
 * The live preview beside the Agent Chat (wide screens): the project's app in the same frame the Preview
 * screen uses, so a person watches it change while chatting. "Setting up sandbox..." until the project has
 * a sandbox. It loads the page again when asked (after a restore, after an agent run) and on Refresh. A phone
 * switch shows the app at 390 px (the device width the Preview screen keeps; tablet is wider than the panel).
 * Select picks an element in the page for the composer beside it (Select to edit).
 */
import { useState } from "react";
import { Link } from "wouter";
import { PanelRightIcon } from "../../../components/ui/icons";
import { Tooltip } from "../../../components/ui/tooltip";
import { SandboxGate, type ProjectWithSandbox } from "../../projects/components/sandbox-gate";
import { withRefreshParam } from "../preview-url";
import { usePreviewReloads } from "../preview-reload";
import { useSandboxUrl } from "../use-sandbox-url";
import { usePreviewDevice } from "../use-preview-device";
import { useElementPicking } from "../use-element-picking";
import { ExternalLinkIcon, PhoneIcon, RefreshIcon, SelectIcon } from "./icons";
import { PreviewFrame } from "./preview-frame";
import { SettingUpSandbox } from "./setting-up-sandbox";

export function ChatPreviewPanel({ projectId, width, onCollapse }: { projectId: string; width: number; onCollapse: () => void }) {
  return (
    <aside
      aria-label="Preview"
      data-testid="chat-preview-panel"
      style={{ width }}
      className="sticky top-14 flex h-[calc(100svh-3.5rem)] shrink-0 flex-col gap-2 self-start border-l bg-background px-3 py-3"
    >
      <SandboxGate projectId={projectId} noSandbox={<PanelBody projectId={projectId} onCollapse={onCollapse} project={null} />}>
        {(project) => <PanelBody projectId={projectId} onCollapse={onCollapse} project={project} />}
      </SandboxGate>
    </aside>
  );
}

function PanelBody({ projectId, project, onCollapse }: { projectId: string; project: ProjectWithSandbox | null; onCollapse: () => void }) {
  const [refreshes, setRefreshes] = useState(0);
  const [stopped, setStopped] = useState(false);
  const [mountedAt] = useState(() => Date.now());
  const { device, setDevice } = usePreviewDevice();
  const phone = device === "phone";
  const reloads = usePreviewReloads(projectId);
  // A picked element goes straight into the composer beside this panel.
  const picker = useElementPicking(projectId);
  const url = useSandboxUrl(projectId, project?.sandboxId).data?.url ?? project?.sandboxUrl ?? null;
  const frameUrl = url ? withRefreshParam(url, `${mountedAt}-${reloads}-${refreshes}`) : null;
  const iconButton =
    "inline-flex size-8 items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50";

  return (
    <>
      <header className="flex shrink-0 items-center gap-1">
        <h2 className="mr-auto text-sm font-semibold">Preview</h2>
        <Tooltip content={picker.picking ? "Stop selecting" : "Select an element to edit"} side="bottom">
          <button
            type="button"
            aria-label="Select an element to edit"
            aria-pressed={picker.picking}
            data-testid="chat-preview-select"
            disabled={!url || !project}
            className={`${iconButton} ${picker.picking ? "bg-muted text-foreground" : ""}`}
            onClick={picker.toggle}
          >
            <SelectIcon className="size-4" />
          </button>
        </Tooltip>
        <Tooltip content={phone ? "Full width" : "Phone width (390 px)"} side="bottom">
          <button
            type="button"
            aria-label="Phone width (390 px)"
            aria-pressed={phone}
            data-testid="chat-preview-phone"
            className={`${iconButton} ${phone ? "bg-muted text-foreground" : ""}`}
            onClick={() => setDevice(phone ? "desktop" : "phone")}
          >
            <PhoneIcon className="size-4" />
          </button>
        </Tooltip>
        <Tooltip content="Refresh" side="bottom">
          <button
            type="button"
            aria-label="Refresh the preview"
            className={iconButton}
            disabled={!url}
            onClick={() => {
              setStopped(false);
              setRefreshes((n) => n + 1);
            }}
          >
            <RefreshIcon className="size-4" />
          </button>
        </Tooltip>
        <Tooltip content="Open the Preview screen" side="bottom">
          <Link href={`/project/${projectId}/preview`} aria-label="Open the Preview screen" className={iconButton}>
            <ExternalLinkIcon className="size-4" />
          </Link>
        </Tooltip>
        <Tooltip content="Hide preview" side="bottom">
          <button type="button" aria-label="Hide preview" data-testid="collapse-preview-panel" className={iconButton} onClick={onCollapse}>
            <PanelRightIcon className="size-4" />
          </button>
        </Tooltip>
      </header>
      {project ? (
        <PreviewFrame
          projectId={projectId}
          url={url}
          frameUrl={frameUrl}
          title={`Preview of ${project.name}`}
          fullscreen={false}
          expired={stopped}
          device={phone ? "phone" : "desktop"}
          {...picker.frame}
          // The Preview screen offers Recreate for a stopped sandbox; here it is only noted on the frame.
          onStatus={(status) => setStopped(status === "stopped")}
        />
      ) : (
        <SettingUpSandbox testId="chat-preview-setting-up" className="py-0" />
      )}
    </>
  );
}
