/**
 * One interactive terminal tab: xterm.js bound to a real shell on a pseudo-terminal in the sandbox
 * (pty-connection.ts). Every key goes to the shell as a terminal would send it (Ctrl+C is SIGINT for the
 * running program; vi, top and REPLs work), the size follows the element, and when the session ends
 * (the shell exited, it sat idle, the connection dropped) Enter starts a new one in the same tab.
 */
import "@xterm/xterm/css/xterm.css";
import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import { useEffect, useRef } from "react";
import { openPtyConnection, type PtyConnection } from "../pty-connection";
import { FIT_DELAY_MS, TERMINAL_FONT, terminalFontSize, terminalTheme } from "../terminal-theme";

export function InteractiveTerminal({ projectId, active, label }: { projectId: string; active: boolean; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const activate = useRef<() => void>(() => {});

  useEffect(() => {
    const element = host.current;
    if (!element) return;
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

    let connection: PtyConnection | null = null;
    let disposed = false;
    const refit = () => {
      // A hidden tab has no size; it is fitted when shown.
      if (!element.clientWidth || !element.clientHeight) return;
      try {
        fit.fit();
      } catch {
        /* not laid out yet: the next resize fits it */
      }
    };
    const start = () => {
      if (disposed) return;
      const conn = openPtyConnection({
        projectId,
        cols: term.cols,
        rows: term.rows,
        onOutput: (bytes) => term.write(bytes),
        onEnd: (notice) => {
          term.write(notice);
          if (connection === conn) connection = null;
        },
      });
      connection = conn;
    };

    const input = term.onData((keys) => {
      if (connection) return connection.send(keys);
      if (keys.includes("\r")) {
        term.reset();
        start();
      }
    });
    const resized = term.onResize(({ cols, rows }) => connection?.resize(cols, rows));
    const onWindowResize = () => {
      const size = terminalFontSize(window.innerWidth);
      if (term.options.fontSize !== size) term.options.fontSize = size;
      refit();
    };
    window.addEventListener("resize", onWindowResize);
    const observer = new ResizeObserver(() => refit());
    observer.observe(element);
    activate.current = () => {
      refit();
      term.focus();
    };
    // Fitted first, so the shell starts at the size it is shown at.
    const startTimer = setTimeout(() => {
      refit();
      start();
      term.focus();
    }, FIT_DELAY_MS);

    return () => {
      disposed = true;
      clearTimeout(startTimer);
      window.removeEventListener("resize", onWindowResize);
      observer.disconnect();
      input.dispose();
      resized.dispose();
      connection?.close();
      term.dispose();
    };
  }, [projectId]);

  useEffect(() => {
    if (active) activate.current();
  }, [active]);

  return <div ref={host} data-testid="interactive-terminal" aria-label={label} className="size-full" />;
}
