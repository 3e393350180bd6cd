/**
 * An xterm.js terminal mounted in an element, set up the way both terminals need it: the house theme and
 * font, a size that follows the element (sidebar toggles, tab switches) and a font size that follows the
 * window. The caller binds input and output; `dispose` undoes everything mounted here.
 *
 * @example
 * const { term, refit, dispose } = mountXterm(element);
 * term.onData((keys) => send(keys));
 */
import "@xterm/xterm/css/xterm.css";
import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import { TERMINAL_FONT, terminalFontSize, terminalTheme } from "./terminal-theme";

export type MountedXterm = { term: Terminal; refit(): void; dispose(): void };

export function mountXterm(element: HTMLElement): MountedXterm {
  const term = new Terminal({
    fontSize: terminalFontSize(window.innerWidth),
    fontFamily: TERMINAL_FONT,
    theme: terminalTheme,
    cursorBlink: true,
    scrollback: 5000,
    allowProposedApi: false,
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.open(element);

  const refit = () => {
    // A hidden element (an inactive tab) has no size; it is fitted when shown.
    if (!element.clientWidth || !element.clientHeight) return;
    try {
      fit.fit();
    } catch {
      /* not laid out yet: the next resize fits it */
    }
  };
  const onWindowResize = () => {
    const size = terminalFontSize(window.innerWidth);
    if (term.options.fontSize !== size) term.options.fontSize = size;
    refit();
  };
  window.addEventListener("resize", onWindowResize);
  // The sidebar opening or closing resizes the terminal without a window resize.
  const observer = new ResizeObserver(() => refit());
  observer.observe(element);

  return {
    term,
    refit,
    dispose() {
      window.removeEventListener("resize", onWindowResize);
      observer.disconnect();
      term.dispose();
    },
  };
}
