import { expect, test } from "bun:test";
import type { ProjectFile } from "@shared/schemas/file";
import { applyFileEvent } from "./apply-file-event";

const f = (id: string, path: string, size = 1): ProjectFile => ({ id, projectId: "p", path, size, updatedAt: "2024-01-01T00:00:00.000Z" });
const list = [f("1", "a.ts"), f("2", "b.ts")];

test("created adds the file; a repeat of the same event changes nothing more", () => {
  const once = applyFileEvent(list, { type: "file.created", projectId: "p", file: f("3", "c.ts") });
  expect(once?.map((x) => x.path)).toEqual(["a.ts", "b.ts", "c.ts"]);
  const twice = applyFileEvent(once, { type: "file.created", projectId: "p", file: f("3", "c.ts") });
  expect(twice).toHaveLength(3);
});

test("updated and renamed replace the file's metadata", () => {
  const updated = applyFileEvent(list, { type: "file.updated", projectId: "p", file: f("1", "a.ts", 99) });
  expect(updated?.find((x) => x.id === "1")?.size).toBe(99);
  const renamed = applyFileEvent(list, { type: "file.renamed", projectId: "p", file: f("2", "src/b.ts"), oldPath: "b.ts" });
  expect(renamed?.map((x) => x.path).sort()).toEqual(["a.ts", "src/b.ts"]);
});

test("deleted removes the file; an unknown id leaves the list as it was", () => {
  expect(applyFileEvent(list, { type: "file.deleted", projectId: "p", file: f("1", "a.ts") })?.map((x) => x.id)).toEqual(["2"]);
  expect(applyFileEvent(list, { type: "file.deleted", projectId: "p", file: f("9", "z.ts") })).toBe(list);
});

test("an unloaded list stays unloaded", () => {
  expect(applyFileEvent(undefined, { type: "file.created", projectId: "p", file: f("3", "c.ts") })).toBeUndefined();
});
