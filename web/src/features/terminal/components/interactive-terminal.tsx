/**
 * One interactive terminal tab: xterm.js bound to a real shell on a pseudo-terminal in the sandbox
 * (pty-connection.ts). Every key goes to the shell as a terminal would send it (Ctrl+C is SIGINT for the
 * running program; vi, top and REPLs work), the size follows the element, and when the session ends
 * (the shell exited, it sat idle, the connection dropped) Enter starts a new one in the same tab.
 */
import { useEffect, useRef } from "react";
import { mountXterm } from "../mount-xterm";
import { openPtyConnection, type PtyConnection } from "../pty-connection";
import { FIT_DELAY_MS } from "../terminal-theme";

export function InteractiveTerminal({ projectId, active, label }: { projectId: string; active: boolean; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const activate = useRef<() => void>(() => {});

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const { term, refit, dispose } = mountXterm(element);
    let connection: PtyConnection | null = null;
    let disposed = false;
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
      input.dispose();
      resized.dispose();
      connection?.close();
      dispose();
    };
  }, [projectId]);

  useEffect(() => {
    if (active) activate.current();
  }, [active]);

  return <div ref={host} data-testid="interactive-terminal" aria-label={label} className="size-full" />;
}
