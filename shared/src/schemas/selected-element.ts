/**
 * An element picked in the preview ("Select to edit") and sent with a chat message: where it is written
 * (component and `file:line`, from the dev server's source tags; null on pages without them), a CSS selector
 * (always; the fallback), and its text and a short HTML excerpt. Each part is capped: the picker in the frame
 * cuts to these lengths, and the API refuses longer.
 */
import { z } from "zod";

export const MAX_ELEMENT_TEXT = 300;
export const MAX_ELEMENT_HTML = 800;
export const MAX_SELECTED_ELEMENTS = 5;

export const selectedElementSchema = z.object({
  component: z.string().max(100).nullable(),
  file: z.string().max(300).nullable(),
  line: z.number().int().positive().nullable(),
  tag: z.string().min(1).max(60),
  selector: z.string().max(500),
  text: z.string().max(MAX_ELEMENT_TEXT, `An element's text is capped at ${MAX_ELEMENT_TEXT} characters`),
  html: z.string().max(MAX_ELEMENT_HTML, `An element's HTML excerpt is capped at ${MAX_ELEMENT_HTML} characters`),
});
export type SelectedElement = z.infer<typeof selectedElementSchema>;

/** Where the element is, as the chip and the model read it: `src/App.tsx:12`, else its CSS selector. */
export function elementPlace(e: SelectedElement): string {
  return e.file ? `${e.file}${e.line ? `:${e.line}` : ""}` : e.selector;
}
