/**
 * The terminal's line editor, kept pure so it can be tested without a DOM: it takes the line typed so far
 * and a chunk of keyboard input from xterm (`onData`), and says what to echo and whether the line was
 * submitted, emptied or cancelled.
 *
 * @example
 * const step = applyInput("ls -l", "a\r");
 * // step.echo === "a", step.outcome === { kind: "run", command: "ls -la" }, step.line === ""
 */

export type LineOutcome =
  /** Enter on a line with text: run the trimmed command. */
  | { kind: "run"; command: string }
  /** Enter on an empty or blank line: only show the prompt again. */
  | { kind: "reprompt" }
  /** Ctrl+C: the line is dropped; print ^C and show the prompt again. */
  | { kind: "cancel" };

export type LineStep = {
  /** The line after this input (empty once it was submitted or cancelled). */
  line: string;
  /** What to write to the terminal to show the edit (typed characters, or a backspace-erase). */
  echo: string;
  /** Set when the input ended the line; input after that point in the same chunk is dropped. */
  outcome: LineOutcome | null;
};

const ENTER = new Set(["\r", "\n"]);
const BACKSPACE = new Set(["\x7f", "\b"]);
export const CTRL_C = "\x03";
const ESC = "\x1b";
/** Moves the cursor back one cell, overwrites it with a space, and moves back again. */
export const ERASE_ONE = "\b \b";

export function applyInput(line: string, data: string): LineStep {
  let current = line;
  let echo = "";
  // Iterate by code point so an emoji or other astral character is one unit for Backspace.
  const chars = Array.from(data);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ENTER.has(ch)) {
      const command = current.trim();
      return { line: "", echo, outcome: command ? { kind: "run", command } : { kind: "reprompt" } };
    }
    if (ch === CTRL_C) return { line: "", echo, outcome: { kind: "cancel" } };
    if (BACKSPACE.has(ch)) {
      if (current) {
        current = Array.from(current).slice(0, -1).join("");
        echo += ERASE_ONE;
      }
      continue;
    }
    if (ch === ESC) {
      // Arrow keys, Home, F-keys and the like arrive as escape sequences; this editor has no cursor
      // movement or history, so skip the whole sequence rather than printing its letters.
      i = skipEscapeSequence(chars, i);
      continue;
    }
    if (ch === "\t" || ch >= " ") {
      const text = ch === "\t" ? " " : ch;
      current += text;
      echo += text;
    }
    // Other control characters (Ctrl+D, Ctrl+L, ...) do nothing here.
  }
  return { line: current, echo, outcome: null };
}

/** Index of the last character of the escape sequence starting at `start` (CSI `ESC [ ... final` or `ESC O x`). */
function skipEscapeSequence(chars: string[], start: number): number {
  const next = chars[start + 1];
  if (next === "[") {
    let i = start + 2;
    // Parameter and intermediate bytes are 0x20-0x3f; the final byte is 0x40-0x7e.
    while (i < chars.length && chars[i]! >= " " && chars[i]! <= "?") i++;
    return Math.min(i, chars.length - 1);
  }
  if (next === "O") return Math.min(start + 2, chars.length - 1);
  // A lone Escape, or Alt+key: drop the escape and the key.
  return next === undefined ? start : start + 1;
}
