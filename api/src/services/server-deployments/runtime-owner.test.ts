/**
 * A handed-over project's published server counts toward its current owner (MAX_LIVE_SERVERS_PER_USER): the
 * runtime's kept entry takes the owner each request reads, so the old owner's count no longer holds it.
 */
import { expect, test } from "bun:test";
import { followOwner } from "./runtime";

test("the kept server entry follows the project's current owner", () => {
  const entry = { spec: { deploymentId: "d1", projectId: "p1", ownerId: "old-owner", files: {} as never } };
  followOwner(entry, { ownerId: "new-owner" });
  expect(entry.spec.ownerId).toBe("new-owner");
  expect(entry.spec.deploymentId).toBe("d1");
});
