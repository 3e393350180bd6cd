import { describe, expect, test } from "bun:test";
import type { SelectedElement } from "@shared/schemas/selected-element";
import { withSelectedElements } from "./selected-elements";

const heading: SelectedElement = {
  component: "App",
  file: "src/App.tsx",
  line: 6,
  tag: "h1",
  selector: "main > h1",
  text: "Hello from React",
  html: '<h1 class="text-3xl">Hello from React</h1>',
};

describe("selected elements in the model's message", () => {
  test("a tagged element is named by component and file:line, with its text and HTML", () => {
    expect(withSelectedElements("Make it red", [heading])).toBe(
      'Make it red\n\n[The user selected this element in the preview: <h1> in App at src/App.tsx:6, text "Hello from React", html `<h1 class="text-3xl">Hello from React</h1>`]',
    );
  });

  test("an untagged page falls back to the CSS selector; several elements are listed", () => {
    const plain = {
      ...heading,
      tag: "p",
      component: null,
      file: null,
      line: null,
      selector: "body > div#app > p:nth-of-type(2)",
      text: "",
      html: "<p>`x`</p>",
    };
    const out = withSelectedElements("Swap these", [heading, plain]);
    expect(out).toContain("[The user selected these elements in the preview:\n- <h1> in App at src/App.tsx:6");
    expect(out).toContain("- <p> at CSS selector \"body > div#app > p:nth-of-type(2)\" (no source location: find it by its text and HTML), html `<p>'x'</p>`]");
  });

  test("no elements: the message as typed", () => {
    expect(withSelectedElements("Hello")).toBe("Hello");
  });
});
