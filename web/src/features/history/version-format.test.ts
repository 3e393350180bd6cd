import { expect, test } from "bun:test";
import { dataMark, describeChange, formatVersionTime, SOURCE_LABELS } from "./version-format";

test("the size of a change names its files and the bytes they add", () => {
  expect(describeChange({ filesChanged: 0, bytes: 0 })).toBe("No changes");
  expect(describeChange({ filesChanged: 1, bytes: 120 })).toBe("1 file · 120 B");
  expect(describeChange({ filesChanged: 3, bytes: 1536 })).toBe("3 files · 1.5 KB");
  // Only removals: nothing was added, so no size is shown.
  expect(describeChange({ filesChanged: 2, bytes: 0 })).toBe("2 files");
});

test("a version of today shows its time; an older one its date too, and its year when not this year", () => {
  const now = new Date(2026, 4, 10, 15, 0);
  const today = formatVersionTime(new Date(2026, 4, 10, 9, 5).toISOString(), now);
  expect(today).not.toContain(",");
  expect(today).toMatch(/09|9/);
  const earlier = formatVersionTime(new Date(2026, 4, 8, 9, 5).toISOString(), now);
  expect(earlier).toContain(",");
  expect(earlier).not.toContain("2026");
  expect(formatVersionTime(new Date(2025, 11, 31, 23, 0).toISOString(), now)).toContain("2025");
  expect(formatVersionTime("not a date", now)).toBe("");
});

test("every source has a label", () => {
  expect(Object.keys(SOURCE_LABELS).sort()).toEqual(["agent", "manual", "restore", "user"]);
});

test("History marks versions whose data changed, and those whose data was too big to keep", () => {
  expect(dataMark({ data: "included", dataChanged: true })?.text).toBe("Data changed");
  expect(dataMark({ data: "none", dataChanged: true })?.text).toBe("Data changed"); // the tables were dropped
  expect(dataMark({ data: "too_large", dataChanged: true })?.text).toBe("Data not included");
  expect(dataMark({ data: "included", dataChanged: false })).toBeNull();
  expect(dataMark({ data: "none", dataChanged: false })).toBeNull();
});
