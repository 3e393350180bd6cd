/**
 * Elements the user picked in the preview ("Select to edit"), written into their message as the model reads
 * it: where each is in the code (component and `file:line` from the dev server's source tags, else its CSS
 * selector), its text and an HTML excerpt, so "make this bigger" has a "this". The stored message keeps only
 * what the user typed.
 *
 * @example
 * withSelectedElements("Make it red", [h1]);
 * // 'Make it red\n\n[The user selected this element in the preview: <h1> in App at src/App.tsx:6, text "Hi", html `<h1>Hi</h1>`]'
 */
import { elementPlace, type SelectedElement } from "@shared/schemas/selected-element";

function describeElement(e: SelectedElement): string {
  const where = e.file
    ? `${e.component ? ` in ${e.component}` : ""} at ${elementPlace(e)}`
    : ` at CSS selector ${JSON.stringify(e.selector)} (no source location: find it by its text and HTML)`;
  const text = e.text ? `, text ${JSON.stringify(e.text)}` : "";
  return `<${e.tag}>${where}${text}, html \`${e.html.replaceAll("`", "'")}\``;
}

export function withSelectedElements(content: string, elements: readonly SelectedElement[] = []): string {
  if (!elements.length) return content;
  const note =
    elements.length === 1
      ? `[The user selected this element in the preview: ${describeElement(elements[0]!)}]`
      : `[The user selected these elements in the preview:\n${elements.map((e) => `- ${describeElement(e)}`).join("\n")}]`;
  return `${content}\n\n${note}`;
}
