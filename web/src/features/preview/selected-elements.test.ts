import { describe, expect, test } from "bun:test";
import { MAX_SELECTED_ELEMENTS, type SelectedElement } from "@shared/schemas/selected-element";
import { addSelectedElement, removeSelectedElement, restoreSelectedElements, takeSelectedElements } from "./selected-elements";

const el = (n: number): SelectedElement => ({
  component: "App",
  file: "src/App.tsx",
  line: n,
  tag: "p",
  selector: `p:nth-of-type(${n})`,
  text: `p${n}`,
  html: `<p>${n}</p>`,
});

describe("selected elements", () => {
  test("are kept per project, once each, the newest MAX_SELECTED_ELEMENTS; taking clears them", () => {
    for (let n = 1; n <= MAX_SELECTED_ELEMENTS + 1; n++) addSelectedElement("a", el(n));
    addSelectedElement("a", el(3));
    addSelectedElement("b", el(9));
    const taken = takeSelectedElements("a");
    expect(taken.map((e) => e.line)).toEqual([2, 4, 5, 6, 3]);
    expect(takeSelectedElements("a")).toEqual([]);
    expect(takeSelectedElements("b").map((e) => e.line)).toEqual([9]);
  });

  test("removing one leaves the rest; a refused message's elements come back first", () => {
    addSelectedElement("c", el(1));
    addSelectedElement("c", el(2));
    removeSelectedElement("c", 0);
    const sent = takeSelectedElements("c");
    addSelectedElement("c", el(7));
    restoreSelectedElements("c", sent);
    expect(takeSelectedElements("c").map((e) => e.line)).toEqual([2, 7]);
  });
});
