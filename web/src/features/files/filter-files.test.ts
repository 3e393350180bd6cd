import { expect, test } from "bun:test";
import { filterFiles, sortByPath } from "./filter-files";

const files = [{ path: "src/App.tsx" }, { path: "src/app.css" }, { path: "README.md" }, { path: "public/logo.svg" }];

test("matches a substring of the path, ignoring case", () => {
  expect(filterFiles(files, "app").map((f) => f.path)).toEqual(["src/App.tsx", "src/app.css"]);
  expect(filterFiles(files, "SRC/").map((f) => f.path)).toEqual(["src/App.tsx", "src/app.css"]);
  expect(filterFiles(files, "o.s").map((f) => f.path)).toEqual(["public/logo.svg"]);
});

test("an empty term keeps every file; no match gives none", () => {
  expect(filterFiles(files, "")).toHaveLength(4);
  expect(filterFiles(files, "nothing-like-this")).toEqual([]);
});

test("sorting by path is by code unit and leaves the input alone", () => {
  const input = [{ path: "b" }, { path: "B" }, { path: "a/z" }, { path: "a" }];
  expect(sortByPath(input).map((f) => f.path)).toEqual(["B", "a", "a/z", "b"]);
  expect(input[0]?.path).toBe("b");
});
