import { expect, test } from "bun:test";
import { ApiError } from "../../api/api-error";
import { restoredToast, restoreFailedToast } from "./restore-feedback";

test("a restore's toast names the version and how many files changed", () => {
  expect(restoredToast({ written: 2, deleted: 1 }, "Add a header")).toEqual({
    title: "Version restored",
    description: 'Files are back to "Add a header". 3 files changed.',
  });
  expect(restoredToast({ written: 0, deleted: 0 }, "Same").description).toContain("already matched");
});

test("a restore's toast says what happened to the database", () => {
  expect(restoredToast({ written: 1, deleted: 0, data: "restored" }, "Todos").description).toBe(
    'Files are back to "Todos". 1 file changed. The database is back as it was too.',
  );
  expect(restoredToast({ written: 1, deleted: 0, data: "unchanged" }, "Todos").description).toBe('Files are back to "Todos". 1 file changed.');
  expect(restoredToast({ written: 0, deleted: 0, data: "not_included" }, "Big").description).toContain("database was left as it is");
});

test("a 409 shows the API's sentence; other failures say the restore failed", () => {
  const busy = new ApiError(409, "conflict", "The agent is working on this project. Wait for it to finish.", "", "Conflict");
  expect(restoreFailedToast(busy)).toEqual({
    title: "Restore refused",
    description: "The agent is working on this project. Wait for it to finish.",
    variant: "destructive",
  });
  expect(restoreFailedToast(new ApiError(500, "internal", "Storage broke", "", ""))).toMatchObject({ title: "Restore failed", description: "Storage broke" });
});
