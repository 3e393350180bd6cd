/** The terminal's look: dark with a near-black background, font 12 below 768 px wide, else 14. */
import type { ITheme } from "@xterm/xterm";

export const FIT_DELAY_MS = 100;
export const MOBILE_MAX_WIDTH = 768;

export function terminalFontSize(viewportWidth: number): number {
  return viewportWidth < MOBILE_MAX_WIDTH ? 12 : 14;
}

export const TERMINAL_BACKGROUND = "#0a0a0b";

export const terminalTheme: ITheme = {
  background: TERMINAL_BACKGROUND,
  foreground: "#e4e4e7",
  cursor: "#e4e4e7",
  cursorAccent: TERMINAL_BACKGROUND,
  selectionBackground: "#3f3f46",
  black: "#18181b",
  red: "#f87171",
  green: "#4ade80",
  yellow: "#facc15",
  blue: "#60a5fa",
  magenta: "#c084fc",
  cyan: "#22d3ee",
  white: "#e4e4e7",
  brightBlack: "#71717a",
  brightRed: "#fca5a5",
  brightGreen: "#86efac",
  brightYellow: "#fde047",
  brightBlue: "#93c5fd",
  brightMagenta: "#d8b4fe",
  brightCyan: "#67e8f9",
  brightWhite: "#fafafa",
};

export const TERMINAL_FONT = 'ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace';
