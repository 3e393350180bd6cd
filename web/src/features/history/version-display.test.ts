import { expect, test } from "bun:test";
import type { VersionSummary } from "@shared/schemas/versions";
import { describeChange, versionBeforeRun } from "./version-display";

const v = (id: string, o: Partial<VersionSummary> = {}): VersionSummary => ({
  id,
  createdAt: "2026-01-01T00:00:00.000Z",
  label: id,
  source: "manual",
  filesChanged: 1,
  bytes: 10,
  ...o,
});

test("describeChange counts files and sizes the change", () => {
  expect(describeChange({ filesChanged: 0, bytes: 0 })).toBe("No changes");
  expect(describeChange({ filesChanged: 1, bytes: 0 })).toBe("1 file changed");
  expect(describeChange({ filesChanged: 3, bytes: 1536 })).toBe("3 files changed · 1.5 KB");
});

test("versionBeforeRun: the run's own 'before' version when it recorded one", () => {
  const list = [
    v("later", { source: "user" }),
    v("after", { source: "agent", messageId: "m1", label: "Add a button" }),
    v("before", { source: "agent", messageId: "m1", label: "Before: Add a button" }),
    v("older"),
  ];
  expect(versionBeforeRun(list, "m1")?.id).toBe("before");
});

test("versionBeforeRun: otherwise the version just older than the run's", () => {
  const list = [v("after", { source: "agent", messageId: "m2" }), v("edits", { source: "user" }), v("older")];
  expect(versionBeforeRun(list, "m2")?.id).toBe("edits");
  expect(versionBeforeRun(list, "no-such-run")).toBeNull();
  expect(versionBeforeRun([v("only", { source: "agent", messageId: "m3" })], "m3")).toBeNull();
});
