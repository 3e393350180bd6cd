/**
 * The Preview view of a project that has a sandbox: header with the Active/Expired badge,
 * the toolbar, and the framed app. Expired when a validity check says so (see useSandboxValidity) or the
 * frame reports that its sandbox is gone; recreate shows the new URL at once through a ~3 s override.
 */
import type { Project } from "@shared/schemas/project";
import type { RecreateResult } from "@shared/schemas/sandbox";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "../../../components/ui/use-toast";
import { cn } from "../../../lib/cn";
import { copyToClipboard } from "../../../lib/copy-to-clipboard";
import { SharePreviewButton } from "../../share/share-preview-button";
import { openPreviewInNewTab } from "../enter-preview";
import { withRefreshParam } from "../preview-url";
import { sandboxKeys } from "../../../api/query-keys";
import { useDownloadSource } from "../use-download-source";
import { useElementPicking } from "../use-element-picking";
import { elementPlace } from "@shared/schemas/selected-element";
import { usePreviewDevice } from "../use-preview-device";
import { useRecreateSandbox } from "../use-recreate-sandbox";
import { useRunWorkflow } from "../use-run-workflow";
import { useSandboxUrl } from "../use-sandbox-url";
import { useSandboxValidity } from "../use-sandbox-validity";
import { AppProcessArea } from "./app-process-area";
import { PreviewFrame } from "./preview-frame";
import { PublishButton } from "../../publish/publish-button";
import { PreviewToolbar } from "./preview-toolbar";
import { ProblemsPanel } from "./problems-panel";
import { SandboxStatusBadge } from "./sandbox-status-badge";

export const URL_OVERRIDE_MS = 3_000;

export function PreviewView({ project }: { project: Project & { sandboxId: string } }) {
  const queryClient = useQueryClient();
  const urlQuery = useSandboxUrl(project.id, project.sandboxId);
  const validity = useSandboxValidity(project.id, project.sandboxId);
  const [override, setOverride] = useState<string | null>(null);
  const [refreshKey, setRefreshKey] = useState(() => Date.now());
  const [frameError, setFrameError] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const { device, setDevice } = usePreviewDevice();
  const overrideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(overrideTimer.current), []);

  const onRecreated = useCallback(
    (result: RecreateResult) => {
      // The old sandbox's answer must not keep the badge on Expired until the project refetch lands.
      queryClient.setQueryData(sandboxKeys.validity(project.id, project.sandboxId), true);
      setFrameError(false);
      setOverride(result.url);
      setRefreshKey(Date.now());
      clearTimeout(overrideTimer.current);
      overrideTimer.current = setTimeout(() => setOverride(null), URL_OVERRIDE_MS);
    },
    [queryClient, project.id, project.sandboxId],
  );
  const onRecreateFailed = useCallback(() => {
    clearTimeout(overrideTimer.current);
    setOverride(null);
  }, []);

  const recreate = useRecreateSandbox(project.id, { onRecreated, onFailed: onRecreateFailed });
  const runWorkflow = useRunWorkflow(project.id, project.workflowCommand);
  const download = useDownloadSource(project.id);
  // No composer here: the element waits in the chat's composer, and a toast says so.
  const picker = useElementPicking(project.id, {
    onPicked: (e) =>
      toast({
        title: "Element attached to the chat",
        description: `${e.component ?? `<${e.tag}>`} at ${elementPlace(e)}: open the chat to say what to change.`,
      }),
  });

  const expired = frameError || validity.data === false;
  const url = override ?? urlQuery.data?.url ?? project.sandboxUrl ?? null;
  const frameUrl = url ? withRefreshParam(url, refreshKey) : null;

  useEffect(() => {
    if (!fullscreen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setFullscreen(false);
    window.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      window.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
    };
  }, [fullscreen]);

  const copyUrl = async () => {
    if (!url) return;
    if (await copyToClipboard(url)) toast({ title: "URL copied", description: url });
    else toast({ title: "Copy failed", description: "Your browser did not allow copying the URL.", variant: "destructive" });
  };

  const refresh = () => {
    setFrameError(false);
    setRefreshKey(Date.now());
    toast({ title: "Refreshed", description: "The preview was reloaded." });
  };

  return (
    <div
      data-testid="preview-page"
      data-fullscreen={fullscreen || undefined}
      className={cn("flex flex-col gap-3", fullscreen ? "fixed inset-0 z-50 bg-background p-2 sm:p-3" : "min-h-0 flex-1 px-3 py-4 sm:px-4 md:px-6 md:py-6")}
    >
      <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex min-w-0 items-center gap-3">
          <h1 className={cn("font-bold tracking-tight", fullscreen ? "text-lg" : "text-2xl")}>Preview</h1>
          <SandboxStatusBadge expired={expired} />
        </div>
        <PreviewToolbar
          expired={expired}
          url={url}
          hasWorkflow={Boolean(project.workflowCommand)}
          fullscreen={fullscreen}
          recreating={recreate.isPending}
          runningWorkflow={runWorkflow.isPending}
          downloading={download.isPending}
          onRecreate={() => recreate.mutate()}
          onRunWorkflow={() => runWorkflow.mutate()}
          onToggleFullscreen={() => setFullscreen((f) => !f)}
          onCopyUrl={() => void copyUrl()}
          onOpenInNewTab={() => url && openPreviewInNewTab(project.id, url)}
          onRefresh={refresh}
          onDownload={() => download.mutate()}
          device={device}
          onDevice={setDevice}
          picking={picker.picking}
          onTogglePick={picker.toggle}
          publish={
            <>
              <SharePreviewButton projectId={project.id} />
              <PublishButton projectId={project.id} />
            </>
          }
        />
      </header>
      <AppProcessArea projectId={project.id}>
        <PreviewFrame
          projectId={project.id}
          url={url}
          frameUrl={frameUrl}
          title={`Preview of ${project.name}`}
          fullscreen={fullscreen}
          expired={expired}
          device={device}
          {...picker.frame}
          onStatus={(status) => {
            // The proxy says the sandbox is gone: Expired at once. Nothing answering yet is normal while the
            // app starts (right after a recreate, say), so it only asks the validity check to look again now.
            if (status === "stopped") setFrameError(true);
            else void validity.refetch();
          }}
        />
      </AppProcessArea>
      {!fullscreen && <ProblemsPanel projectId={project.id} />}
    </div>
  );
}
