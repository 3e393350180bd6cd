/**
 * The Select button's state for one preview frame: on, the frame's page highlights what is hovered and a
 * click attaches that element to the project's chat composer (selected-elements.ts); picking then ends, as it
 * does on Escape (in the page or here) and when the frame says so.
 *
 * @example
 * const picker = useElementPicking(projectId, { onPicked: (e) => toast(...) });
 * <PreviewFrame {...picker.frame} ... />
 */
import type { SelectedElement } from "@shared/schemas/selected-element";
import { useCallback, useEffect, useRef, useState } from "react";
import { addSelectedElement } from "./selected-elements";

export function useElementPicking(projectId: string, o: { onPicked?: (element: SelectedElement) => void } = {}) {
  const [picking, setPicking] = useState(false);
  const after = useRef(o.onPicked);
  after.current = o.onPicked;

  useEffect(() => {
    if (!picking) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setPicking(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [picking]);

  const onPicked = useCallback(
    (element: SelectedElement) => {
      addSelectedElement(projectId, element);
      setPicking(false);
      after.current?.(element);
    },
    [projectId],
  );
  const onPickEnded = useCallback(() => setPicking(false), []);
  const toggle = useCallback(() => setPicking((on) => !on), []);

  return { picking, toggle, frame: { picking, onPicked, onPickEnded } };
}
