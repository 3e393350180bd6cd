/**
 * The elements picked in the preview, above the message box: each a chip with its component (or tag) and
 * `file:line` (or, on a page without source tags, its CSS selector), its text as the tooltip, and a remove button.
 */
import { elementPlace, type SelectedElement } from "@shared/schemas/selected-element";
import { XIcon } from "./icons";

export function ElementChips({ elements, onRemove }: { elements: readonly SelectedElement[]; onRemove: (index: number) => void }) {
  if (!elements.length) return null;
  return (
    <ul className="flex flex-wrap gap-1.5 px-3 pt-3" aria-label="Selected elements">
      {elements.map((e, i) => (
        <li
          key={`${elementPlace(e)}-${e.selector}`}
          data-testid="element-chip"
          title={e.text ? `${e.text}\n\n${e.html}` : e.html}
          className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-blue-500/40 bg-blue-500/10 py-0.5 pr-1 pl-2.5 text-xs"
        >
          <span className="font-medium">{e.component ?? `<${e.tag}>`}</span>
          <span className="min-w-0 truncate font-mono text-[11px] text-muted-foreground">{elementPlace(e)}</span>
          <button
            type="button"
            onClick={() => onRemove(i)}
            aria-label={`Remove selected element ${e.component ?? e.tag}`}
            className="inline-flex size-5 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <XIcon className="size-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}
