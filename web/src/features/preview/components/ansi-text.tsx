/** Styled runs of a log line (from ansi.ts) as spans: text nodes only, so a log line can never inject HTML. */
import type { CSSProperties } from "react";
import type { AnsiRun, AnsiStyle } from "../ansi";

const cssOf = (s: AnsiStyle): CSSProperties | undefined => {
  if (!Object.keys(s).length) return undefined;
  return {
    color: s.color,
    backgroundColor: s.background,
    fontWeight: s.bold ? 600 : undefined,
    opacity: s.dim ? 0.7 : undefined,
    fontStyle: s.italic ? "italic" : undefined,
    textDecoration: s.underline ? "underline" : undefined,
  };
};

export function AnsiText({ runs }: { runs: AnsiRun[] }) {
  return (
    <>
      {runs.map((run, i) => {
        const style = cssOf(run.style);
        return style ? (
          <span key={i} style={style}>
            {run.text}
          </span>
        ) : (
          <span key={i}>{run.text}</span>
        );
      })}
    </>
  );
}
