/**
 * A small tooltip: pointer hover opens it after 700 ms ("delayed-open"); moving on to another
 * trigger within 300 ms of one closing, or focusing a trigger with the keyboard, opens it at once
 * ("instant-open"). Escape, pointer leave and blur close it.
 *
 * @example
 * <Tooltip content="Projects" side="right" disabled={!collapsed}>
 *   <Link href="/projects">…</Link>
 * </Tooltip>
 */
import { cloneElement, type ReactElement, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { cn } from "../../lib/cn";

export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

type TooltipState = "closed" | "delayed-open" | "instant-open";
type Side = "right" | "top" | "bottom";

// Shared by every tooltip, so the skip delay spans triggers.
let lastClosedAt = 0;

type TooltipProps = {
  content: string;
  side?: Side;
  /** When true the trigger renders alone (e.g. the sidebar is expanded and shows its labels). */
  disabled?: boolean;
  children: ReactElement<{ "aria-describedby"?: string }>;
};

export function Tooltip({ content, side = "top", disabled, children }: TooltipProps) {
  const id = useId();
  const wrapper = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [state, setState] = useState<TooltipState>("closed");
  // Read synchronously by close(): leaving one trigger and entering the next happen in the same tick.
  const isOpen = useRef(false);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const open = state !== "closed";

  const show = (next: Exclude<TooltipState, "closed">) => {
    const target = wrapper.current?.firstElementChild;
    if (!target) return;
    setPosition(anchor(target.getBoundingClientRect(), side));
    isOpen.current = true;
    setState(next);
  };

  const enter = () => {
    clearTimeout(timer.current);
    if (Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS) show("instant-open");
    else timer.current = setTimeout(() => show("delayed-open"), TOOLTIP_OPEN_DELAY_MS);
  };

  const close = () => {
    clearTimeout(timer.current);
    if (isOpen.current) lastClosedAt = Date.now();
    isOpen.current = false;
    setState("closed");
  };

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (disabled) close();
  }, [disabled]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && close();
    window.addEventListener("keydown", onKey);
    window.addEventListener("scroll", close, true);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("scroll", close, true);
    };
  }, [open]);

  if (disabled) return children;
  return (
    <span
      ref={wrapper}
      className="contents"
      data-state={state}
      onPointerEnter={(e) => e.pointerType !== "touch" && enter()}
      onPointerLeave={close}
      onPointerDown={close}
      onFocus={(e) => e.target.matches(":focus-visible") && show("instant-open")}
      onBlur={close}
    >
      {cloneElement(children, { "aria-describedby": open ? id : undefined })}
      {open &&
        position &&
        createPortal(
          <div
            id={id}
            role="tooltip"
            data-state={state}
            style={{ top: position.top, left: position.left }}
            className={cn(
              "pointer-events-none fixed z-[60] rounded-md bg-foreground px-2.5 py-1.5 text-xs font-medium whitespace-nowrap text-background shadow-md",
              side === "right" ? "-translate-y-1/2" : side === "top" ? "-translate-x-1/2 -translate-y-full" : "-translate-x-1/2",
            )}
          >
            {content}
          </div>,
          document.body,
        )}
    </span>
  );
}

const GAP = 8;

function anchor(rect: DOMRect, side: Side): { top: number; left: number } {
  if (side === "right") return { top: rect.top + rect.height / 2, left: rect.right + GAP };
  if (side === "top") return { top: rect.top - GAP, left: rect.left + rect.width / 2 };
  return { top: rect.bottom + GAP, left: rect.left + rect.width / 2 };
}
