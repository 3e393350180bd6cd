/**
 * /project/{id}/chat: the chat, and on screens 1280 px and wider the live preview in a resizable,
 * collapsible side panel (width and collapsed state remembered in this browser).
 */
import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import { ChatHeader } from "../features/chat/components/chat-header";
import { ChatView } from "../features/chat/components/chat-view";
import { ChatPreviewPanel } from "../features/preview/components/chat-preview-panel";
import { PanelResizeHandle } from "../features/preview/components/panel-resize-handle";
import { clampPanelWidth, MIN_CHAT_WIDTH, MIN_PANEL_WIDTH, PREVIEW_PANEL_QUERY } from "../features/preview/preview-panel-prefs";
import { usePreviewPanelPrefs } from "../features/preview/use-preview-panel-prefs";
import { useMediaQuery } from "../lib/use-media-query";

export function ChatPage({ projectId }: { projectId: string }) {
  const wide = useMediaQuery(PREVIEW_PANEL_QUERY);
  const panel = usePreviewPanelPrefs();
  const row = useRef<HTMLDivElement>(null);
  const available = useRowWidth(row);
  const showPanel = wide && !panel.collapsed;
  const width = clampPanelWidth(panel.width, available);

  return (
    <div ref={row} className="flex min-w-0 flex-1">
      <div className="flex min-w-0 flex-1 flex-col">
        <ChatHeader projectId={projectId} preview={wide ? { open: showPanel, onToggle: () => panel.setCollapsed(false) } : undefined} />
        <ChatView projectId={projectId} />
      </div>
      {showPanel && (
        <>
          <PanelResizeHandle
            width={width}
            min={MIN_PANEL_WIDTH}
            max={Math.max(MIN_PANEL_WIDTH, available - MIN_CHAT_WIDTH)}
            onResize={(w, done) => panel.setWidth(w, done)}
          />
          <ChatPreviewPanel projectId={projectId} width={width} onCollapse={() => panel.setCollapsed(true)} />
        </>
      )}
    </div>
  );
}

/** The row's width, followed as the window or the sidebar changes it. */
function useRowWidth(ref: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(() => (typeof window === "undefined" ? 1280 : window.innerWidth));
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
