import { expect, test } from "bun:test";
import { terminalFontSize } from "./terminal-theme";

test("font size is 12 below 768 px wide, 14 from 768 px", () => {
  expect(terminalFontSize(375)).toBe(12);
  expect(terminalFontSize(767)).toBe(12);
  expect(terminalFontSize(768)).toBe(14);
  expect(terminalFontSize(1440)).toBe(14);
});
