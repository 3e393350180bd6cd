import { describe, expect, test } from "bun:test";
import { appendLogLines, appStatusText, logLineRuns, logTime, mergeLogLines } from "./app-log-lines";

const line = (text: string, t = "2026-01-01T00:00:00.000Z") => ({ t, stream: "stdout" as const, text });

describe("app log lines", () => {
  test("live lines already in the fetched answer are not added twice", () => {
    const fetched = [line("a"), line("b"), line("c")];
    expect(mergeLogLines(fetched, [line("b"), line("c"), line("d")]).map((l) => l.text)).toEqual(["a", "b", "c", "d"]);
    expect(mergeLogLines(fetched, [line("d")]).map((l) => l.text)).toEqual(["a", "b", "c", "d"]);
    expect(mergeLogLines([], [line("x")]).map((l) => l.text)).toEqual(["x"]);
    // Same text at another time is another line.
    expect(mergeLogLines([line("a")], [line("a", "2026-01-01T00:00:01.000Z")]).length).toBe(2);
  });

  test("only the last lines are kept", () => {
    const many = Array.from({ length: 10 }, (_, i) => line(String(i)));
    expect(appendLogLines(many, [line("10")], 4).map((l) => l.text)).toEqual(["7", "8", "9", "10"]);
  });

  test("the status line's words", () => {
    expect(appStatusText(null)).toBe("App not started");
    expect(appStatusText({ status: "starting", ports: [], exitCode: null })).toBe("Starting…");
    expect(appStatusText({ status: "running", ports: [5173, 24678], exitCode: null })).toBe("Running on port 5173");
    expect(appStatusText({ status: "crashed", ports: [], exitCode: 1 })).toBe("Crashed (exit code 1)");
    expect(appStatusText({ status: "exited", ports: [], exitCode: 0 })).toBe("Stopped");
  });
});

describe("a log line as shown", () => {
  const text = (line: string) =>
    logLineRuns(line)
      .map((r) => r.text)
      .join("");

  test("one timestamp: a dev server's own leading time is dropped, colours kept", () => {
    const vite = "\x1b[2m8:21:43 AM\x1b[22m \x1b[36m\x1b[1m[vite]\x1b[22m\x1b[39m \x1b[32mhmr update \x1b[39m";
    expect(text(vite)).toBe("[vite] hmr update ");
    expect(logLineRuns(vite)[0]).toEqual({ text: "[vite]", style: { color: "#22d3ee", bold: true } });
    expect(text("[12:01:02] Starting compilation")).toBe("Starting compilation");
    expect(text("2026-11-27T08:21:43.120Z GET /api/health 200")).toBe("GET /api/health 200");
    expect(text("2026-11-27 08:21:43 INFO ready")).toBe("INFO ready");
    // Only at the start, and only a time.
    expect(text("took 0:00:03 to build")).toBe("took 0:00:03 to build");
    expect(text("12 files changed")).toBe("12 files changed");
  });

  test("what a progress bar overwrote with a carriage return is not shown", () => {
    expect(text("10%\r50%\r100% done")).toBe("100% done");
    expect(text("done\r\x1b[K")).toBe("done");
  });

  test("the time is the reader's clock, HH:MM:SS", () => {
    const d = new Date(2026, 10, 27, 9, 5, 7);
    expect(logTime(d.toISOString())).toBe("09:05:07");
    expect(logTime("not a time")).toBe("");
  });
});
