import { describe, expect, test } from "bun:test";
import { unifiedDiff } from "./unified-diff";

/** Applies a unified diff to `before` (the reader side of the format), to check patches round-trip. */
function applyPatch(before: string, patch: string): string {
  const source = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  // Whether the output's last line so far ends with a newline.
  let newlineAtEnd = true;
  let at = 0;
  const copy = (until: number) => {
    while (at < until) {
      out.push(source[at++]!);
      newlineAtEnd = at < source.length || before.endsWith("\n");
    }
  };
  const lines = patch.split("\n").slice(2);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(line);
    if (hunk) {
      copy(hunk[2] === "0" ? Number(hunk[1]) : Number(hunk[1]) - 1);
      continue;
    }
    const noNewline = lines[i + 1] === "\\ No newline at end of file";
    if (line.startsWith(" ") || line.startsWith("-")) {
      expect(source[at]).toBe(line.slice(1));
      at++;
    }
    if (line.startsWith(" ") || line.startsWith("+")) {
      out.push(line.slice(1));
      newlineAtEnd = !noNewline;
    }
  }
  copy(source.length);
  return out.length === 0 ? "" : out.join("\n") + (newlineAtEnd ? "\n" : "");
}

describe("unifiedDiff", () => {
  test("one changed line among context, in diff -u form", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
    expect(unifiedDiff("x.txt", before, after)).toBe("--- a/x.txt\n+++ b/x.txt\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
  });

  test("added and removed files diff against /dev/null", () => {
    expect(unifiedDiff("n.txt", "", "one\ntwo\n", { added: true })).toBe("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n");
    expect(unifiedDiff("o.txt", "gone\n", "", { removed: true })).toBe("--- a/o.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n");
  });

  test("a missing final newline is a change, marked as git marks it", () => {
    expect(unifiedDiff("x", "a\nb", "a\nb\n")).toBe("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
  });

  test("identical text has no diff", () => {
    expect(unifiedDiff("x", "same\n", "same\n")).toBe("");
  });

  test("random edits round-trip through the patch", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const words = ["alpha", "beta", "gamma", "delta", "", "}"];
      const before = Array.from({ length: Math.floor(random() * 40) }, () => words[Math.floor(random() * words.length)]).join("\n");
      const lines = before.split("\n");
      for (let edits = Math.floor(random() * 6); edits > 0; edits--) {
        const at = Math.floor(random() * (lines.length + 1));
        const roll = random();
        if (roll < 0.4) lines.splice(at, 1);
        else if (roll < 0.7) lines.splice(at, 0, `new ${round}`);
        else lines[at] = `changed ${round}`;
      }
      const after = lines.join("\n") + (random() < 0.5 ? "\n" : "");
      const withNewline = before + (random() < 0.5 ? "\n" : "");
      expect(applyPatch(withNewline, unifiedDiff("f", withNewline, after))).toBe(after);
    }
  });

  test("very different large files fall back to replacing everything", () => {
    const before = Array.from({ length: 5000 }, (_, i) => `old ${i}`).join("\n") + "\n";
    const after = Array.from({ length: 5000 }, (_, i) => `new ${i}`).join("\n") + "\n";
    const started = performance.now();
    const patch = unifiedDiff("big", before, after);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(applyPatch(before, patch)).toBe(after);
  });
});
