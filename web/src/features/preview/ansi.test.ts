import { describe, expect, test } from "bun:test";
import { parseAnsi, stripAnsi } from "./ansi";

describe("parseAnsi", () => {
  test("plain text is one unstyled run", () => {
    expect(parseAnsi("hello <b>world</b>")).toEqual([{ text: "hello <b>world</b>", style: {} }]);
  });

  test("SGR colours and weights become styles, and reset ends them", () => {
    expect(parseAnsi("\x1b[32mready\x1b[39m in \x1b[1m300 ms\x1b[22m")).toEqual([
      { text: "ready", style: { color: "#4ade80" } },
      { text: " in ", style: {} },
      { text: "300 ms", style: { bold: true } },
    ]);
    expect(parseAnsi("\x1b[1;31merror\x1b[0m: x")).toEqual([
      { text: "error", style: { bold: true, color: "#f87171" } },
      { text: ": x", style: {} },
    ]);
    expect(parseAnsi("\x1b[41;97m FAIL \x1b[m")).toEqual([{ text: " FAIL ", style: { background: "#f87171", color: "#fafafa" } }]);
  });

  test("256 and true colours", () => {
    expect(parseAnsi("\x1b[38;5;208mo\x1b[48;2;10;20;300mb")).toEqual([
      { text: "o", style: { color: "rgb(255, 135, 0)" } },
      { text: "b", style: { color: "rgb(255, 135, 0)", background: "rgb(10, 20, 255)" } },
    ]);
    expect(parseAnsi("\x1b[38;5;244mgrey")[0]!.style.color).toBe("rgb(128, 128, 128)");
  });

  test("Vite's startup line: dim, cyan and bold runs, no escape bytes left", () => {
    const line = "\x1b[2m8:21:43 AM\x1b[22m \x1b[36m\x1b[1m[vite]\x1b[22m\x1b[39m \x1b[32mhmr update \x1b[39m\x1b[2m/src/App.tsx\x1b[22m";
    const runs = parseAnsi(line);
    expect(runs.map((r) => r.text).join("")).toBe("8:21:43 AM [vite] hmr update /src/App.tsx");
    expect(runs.find((r) => r.text === "[vite]")!.style).toEqual({ color: "#22d3ee", bold: true });
    expect(runs.some((r) => r.text.includes("\x1b"))).toBe(false);
  });

  test("other escape sequences (cursor moves, line erases, titles) are dropped, not shown", () => {
    expect(stripAnsi("\x1b[2K\x1b[1Gbuilding\x1b[?25l…")).toBe("building…");
    expect(stripAnsi("\x1b]0;my title\x07done")).toBe("done");
    expect(stripAnsi("a\x1b")).toBe("a");
  });

  test("HTML in a line stays text (runs are rendered as text nodes, never as markup)", () => {
    expect(parseAnsi("\x1b[31m<img src=x onerror=alert(1)>\x1b[0m")).toEqual([{ text: "<img src=x onerror=alert(1)>", style: { color: "#f87171" } }]);
  });
});
