/**
 * What the app and the element picker in a preview page (api/src/realtime/preview-reporter/pick.js) say to
 * each other by postMessage, the preview being another origin:
 * - app → frame `{ type: PICK_TYPE, on }`: start or stop picking;
 * - frame → app `{ type: PICKED_TYPE, element }`: the element clicked (picking then stops);
 * - frame → app `{ type: PICK_ENDED_TYPE }`: Escape ended picking in the page;
 * - frame → app `{ type: PICKER_READY_TYPE }`: a page (re)loaded and can be asked to pick.
 * The frame obeys only its parent at the app's origin; the app reads only its current frame at the preview's origin.
 */
import { type SelectedElement, selectedElementSchema } from "../schemas/selected-element";

export const PICK_TYPE = "app-builder:pick";
export const PICKED_TYPE = "app-builder:picked";
export const PICK_ENDED_TYPE = "app-builder:pick-ended";
export const PICKER_READY_TYPE = "app-builder:picker-ready";

export type PickerMessage = { type: typeof PICKED_TYPE; element: SelectedElement } | { type: typeof PICK_ENDED_TYPE } | { type: typeof PICKER_READY_TYPE };

/** The message, checked (an element outside the caps or the shape is dropped); null for anything else. */
export function readPickerMessage(value: unknown): PickerMessage | null {
  if (typeof value !== "object" || value === null) return null;
  const { type, element } = value as Record<string, unknown>;
  if (type === PICK_ENDED_TYPE || type === PICKER_READY_TYPE) return { type };
  if (type !== PICKED_TYPE) return null;
  const parsed = selectedElementSchema.safeParse(element);
  return parsed.success ? { type, element: parsed.data } : null;
}
