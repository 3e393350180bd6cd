/**
 * The `app` output, following live: one line per row with its time (the line's own leading timestamp
 * dropped), ANSI colours shown, stderr set apart, kept scrolled to the newest line unless the reader scrolled up.
 */
import type { ProcessLogLine } from "@shared/schemas/processes";
import { useEffect, useRef } from "react";
import { cn } from "../../../lib/cn";
import { logLineRuns, logTime } from "../app-log-lines";
import { AnsiText } from "./ansi-text";

export function LogsPanel({ lines, className, testId = "logs-panel" }: { lines: ProcessLogLine[]; className?: string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useEffect(() => {
    const el = box.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [lines]);

  return (
    <div
      ref={box}
      data-testid={testId}
      role="log"
      aria-label="App output"
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
      className={cn("overflow-auto rounded-lg border bg-zinc-950 p-2 font-mono text-xs leading-5 text-zinc-200", className)}
    >
      {lines.length === 0 ? (
        <p className="text-zinc-500">No output yet.</p>
      ) : (
        lines.map((line, i) => (
          <div key={i} className={cn("whitespace-pre-wrap break-all", line.stream === "stderr" && "text-red-300")}>
            <span className="mr-2 select-none text-zinc-500" data-testid="log-time">
              {logTime(line.t)}
            </span>
            <AnsiText runs={logLineRuns(line.text)} />
          </div>
        ))
      )}
    </div>
  );
}
