/**
 * The framed preview: a browser-like bar with the URL over an iframe of the sandbox app. Width
 * is capped at 375 px on the narrowest screens and grows with the screen; fullscreen takes the full width;
 * a tablet or phone device shows the app at that width (never wider than the room there is).
 * The app runs on its own origin, so the frame cannot read this app's cookies or storage. A browser fires no
 * error event for a frame whose page answered 502, so the preview proxy's own error pages post their status
 * to this window instead (@shared/events/preview-status); only the current frame's messages count. The frame
 * enters its host with a ticket first (use-entered-preview.ts): a preview answers only browsers let in.
 * With `picking`, the page's element picker (pick.js, injected by the preview proxy) is asked to start, again
 * whenever a page loads; what it picks is read only from the current frame and only from the preview's origin.
 */
import { PICK_ENDED_TYPE, PICK_TYPE, PICKED_TYPE, PICKER_READY_TYPE, readPickerMessage } from "@shared/events/preview-pick";
import { isPreviewStatusMessage, type PreviewStatus } from "@shared/events/preview-status";
import type { SelectedElement } from "@shared/schemas/selected-element";
import { useEffect, useRef } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { DEVICE_WIDTHS, type PreviewDevice } from "../preview-panel-prefs";
import { useEnteredPreview } from "../use-entered-preview";
import { GlobeIcon } from "./icons";

export function PreviewFrame({
  projectId,
  url,
  frameUrl,
  title,
  fullscreen,
  expired,
  onStatus,
  device = "desktop",
  picking = false,
  onPicked,
  onPickEnded,
}: {
  projectId: string;
  /** The URL as shown and copied; null until it is known. */
  url: string | null;
  /** The URL loaded in the frame (with _refresh); a new value reloads it. */
  frameUrl: string | null;
  title: string;
  fullscreen: boolean;
  /** Shows a notice over the top of the (possibly stale) page: the sandbox behind it has stopped. */
  expired: boolean;
  /** The proxy's page in the frame said the sandbox is gone, or that nothing answers on its port yet. */
  onStatus: (status: PreviewStatus) => void;
  device?: PreviewDevice;
  /** Hovering highlights the page's elements and a click picks one ("Select to edit"). */
  picking?: boolean;
  onPicked?: (element: SelectedElement) => void;
  /** Picking ended in the page (Escape). */
  onPickEnded?: () => void;
}) {
  const deviceWidth = DEVICE_WIDTHS[device];
  const src = useEnteredPreview(projectId, frameUrl);
  const frame = useRef<HTMLIFrameElement>(null);
  const report = useRef(onStatus);
  report.current = onStatus;
  const previewOrigin = originOf(frameUrl);
  const pick = useRef({ picking, onPicked, onPickEnded, previewOrigin });
  pick.current = { picking, onPicked, onPickEnded, previewOrigin };

  useEffect(() => {
    const askToPick = (on: boolean) => {
      const { previewOrigin: origin } = pick.current;
      if (origin) frame.current?.contentWindow?.postMessage({ type: PICK_TYPE, on }, origin);
    };
    const onMessage = (event: MessageEvent) => {
      // A message from anywhere else (an older frame, another window) says nothing about this preview.
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      if (isPreviewStatusMessage(event.data)) return report.current(event.data.status);
      // What the page picked counts only from the preview's own origin (not a page it navigated to elsewhere).
      if (event.origin !== pick.current.previewOrigin) return;
      const message = readPickerMessage(event.data);
      if (message?.type === PICKER_READY_TYPE && pick.current.picking) askToPick(true);
      else if (message?.type === PICKED_TYPE) pick.current.onPicked?.(message.element);
      else if (message?.type === PICK_ENDED_TYPE) pick.current.onPickEnded?.();
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  useEffect(() => {
    if (previewOrigin) frame.current?.contentWindow?.postMessage({ type: PICK_TYPE, on: picking }, previewOrigin);
  }, [picking, previewOrigin]);

  return (
    <div className="flex min-h-0 flex-1 justify-center">
      <div
        data-testid="preview-frame"
        data-device={device}
        // The bar and the border are outside the page: the page itself is the device's width.
        style={deviceWidth ? { maxWidth: deviceWidth + 2 } : undefined}
        className={cn(
          "flex min-h-[360px] w-full flex-col overflow-hidden rounded-xl border bg-card shadow-sm",
          fullscreen ? "max-w-none" : "max-w-[375px] sm:max-w-[640px] md:max-w-[768px] lg:max-w-[1024px] xl:max-w-[1280px] 2xl:max-w-[1536px]",
        )}
      >
        <div className="flex h-9 shrink-0 items-center gap-2 border-b bg-muted/50 px-3">
          <span aria-hidden className="flex gap-1.5">
            <span className="size-2.5 rounded-full bg-red-400/80" />
            <span className="size-2.5 rounded-full bg-amber-400/80" />
            <span className="size-2.5 rounded-full bg-emerald-400/80" />
          </span>
          <div className="ml-1 flex h-6 min-w-0 flex-1 items-center gap-1.5 rounded-md bg-background px-2 text-xs text-muted-foreground">
            <GlobeIcon className="size-3" />
            <span className="truncate" data-testid="preview-url">
              {url ?? "…"}
            </span>
          </div>
        </div>
        {expired && (
          <p role="status" className="shrink-0 border-b border-destructive/30 bg-destructive/10 px-3 py-1.5 text-xs text-destructive">
            This sandbox has stopped; the page below may be out of date. Recreate the sandbox to run the app again.
          </p>
        )}
        <div className="relative min-h-0 flex-1 bg-white">
          {frameUrl && src ? (
            <iframe
              data-picking={picking || undefined}
              ref={frame}
              key={frameUrl}
              src={src}
              title={title}
              onError={() => report.current("stopped")}
              className="absolute inset-0 size-full border-0"
              sandbox="allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox allow-same-origin allow-scripts allow-downloads"
              allow="clipboard-read; clipboard-write"
            />
          ) : (
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-background text-sm text-muted-foreground">
              <Spinner className="size-6" />
              Loading preview...
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
