import { expect, test } from "bun:test";
import { diffRows } from "./diff-rows";

test("rows are sorted by path and name the file on each side", () => {
  const rows = diffRows({
    added: [{ path: "src/new.ts", sha256: "n", size: 1 }],
    removed: [{ path: "old.txt", sha256: "o", size: 1 }],
    changed: [{ path: "src/App.tsx", size: 2, fromSha256: "a", toSha256: "b", fromSize: 1 }],
    renamed: [{ from: "a.css", to: "styles/a.css", sha256: "c", size: 3 }],
  });
  expect(rows).toEqual([
    { kind: "removed", path: "old.txt", versionPath: "old.txt", currentPath: null },
    { kind: "changed", path: "src/App.tsx", versionPath: "src/App.tsx", currentPath: "src/App.tsx" },
    { kind: "added", path: "src/new.ts", versionPath: null, currentPath: "src/new.ts" },
    { kind: "renamed", path: "styles/a.css", versionPath: "a.css", currentPath: "styles/a.css" },
  ]);
});

test("no differences, no rows", () => {
  expect(diffRows({ added: [], removed: [], changed: [], renamed: [] })).toEqual([]);
});
