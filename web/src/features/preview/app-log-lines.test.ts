import { describe, expect, test } from "bun:test";
import { appendLogLines, appStatusText, mergeLogLines } from "./app-log-lines";

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
