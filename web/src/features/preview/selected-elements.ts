/**
 * The elements picked in a project's preview ("Select to edit"), waiting in the chat composer as chips until
 * the next message takes them. Module-level, so an element picked on the Preview screen is still there when
 * the chat opens. At most MAX_SELECTED_ELEMENTS per project (the oldest goes); the same element twice is kept once.
 *
 * @example
 * addSelectedElement(projectId, picked);
 * const elements = takeSelectedElements(projectId); // sent with the message, the chips cleared
 */
import { MAX_SELECTED_ELEMENTS, type SelectedElement } from "@shared/schemas/selected-element";
import { createStore, useStore } from "../../lib/create-store";

const selected = createStore<ReadonlyMap<string, readonly SelectedElement[]>>(new Map());
const NONE: readonly SelectedElement[] = [];

const same = (a: SelectedElement, b: SelectedElement) => a.selector === b.selector && a.file === b.file && a.line === b.line && a.html === b.html;

function update(projectId: string, change: (list: readonly SelectedElement[]) => readonly SelectedElement[]): void {
  selected.set((current) => {
    const next = new Map(current);
    const list = change(current.get(projectId) ?? NONE);
    if (list.length) next.set(projectId, list);
    else next.delete(projectId);
    return next;
  });
}

export function addSelectedElement(projectId: string, element: SelectedElement): void {
  update(projectId, (list) => [...list.filter((e) => !same(e, element)), element].slice(-MAX_SELECTED_ELEMENTS));
}

export function removeSelectedElement(projectId: string, index: number): void {
  update(projectId, (list) => list.filter((_, i) => i !== index));
}

/** The project's elements, cleared from the composer (they go with the message being sent). */
export function takeSelectedElements(projectId: string): SelectedElement[] {
  const list = [...(selected.get().get(projectId) ?? NONE)];
  update(projectId, () => NONE);
  return list;
}

/** Puts elements back (a message the server refused returns to the composer), before any picked since. */
export function restoreSelectedElements(projectId: string, elements: readonly SelectedElement[]): void {
  if (elements.length) update(projectId, (list) => [...elements, ...list.filter((e) => !elements.some((r) => same(r, e)))].slice(-MAX_SELECTED_ELEMENTS));
}

export function useSelectedElements(projectId: string): readonly SelectedElement[] {
  return useStore(selected, (all) => all.get(projectId) ?? NONE);
}
