/**
 * The drag handle on the preview panel's left edge: dragging left widens the panel. Also a focusable
 * separator: the arrow keys move it by 16 px. The width is remembered when a drag or key press ends.
 */
import { type KeyboardEvent, type PointerEvent, useRef } from "react";

const KEY_STEP = 16;

export function PanelResizeHandle({
  width,
  min,
  max,
  onResize,
}: {
  width: number;
  min: number;
  max: number;
  /** `done`: the drag ended (store the width). */
  onResize: (width: number, done: boolean) => void;
}) {
  const drag = useRef<{ startX: number; startWidth: number; last: number } | null>(null);
  const clamp = (w: number) => Math.min(Math.max(w, min), max);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startWidth: width, last: width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    d.last = clamp(d.startWidth + (d.startX - e.clientX));
    onResize(d.last, false);
  };
  const end = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    onResize(d.last, true);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const delta = e.key === "ArrowLeft" ? KEY_STEP : e.key === "ArrowRight" ? -KEY_STEP : 0;
    if (!delta) return;
    e.preventDefault();
    onResize(clamp(width + delta), true);
  };

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the preview"
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      data-testid="preview-panel-resize"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
      className="group relative w-2 shrink-0 cursor-col-resize touch-none select-none focus-visible:outline-none"
    >
      <span className="absolute inset-y-0 left-1/2 w-px -translate-x-1/2 bg-border transition-colors group-hover:w-0.5 group-hover:bg-primary group-focus-visible:w-0.5 group-focus-visible:bg-ring" />
    </div>
  );
}
