/** What a browser may send on the project socket: subscribe and unsubscribe with a bounded project id, nothing else. */
import { describe, expect, test } from "bun:test";
import { clientSocketMessageSchema, fileEventTypes } from "./file-events";

describe("client socket messages", () => {
  test("subscribe and unsubscribe parse to themselves", () => {
    for (const type of ["subscribe", "unsubscribe"] as const) {
      expect(clientSocketMessageSchema.parse({ type, projectId: "p1" })).toEqual({ type, projectId: "p1" });
    }
  });

  test("anything else is refused: other types, a missing or over-long id, a non-object", () => {
    const bad = [
      { type: "file.updated", projectId: "p1" },
      { type: "subscribe" },
      { type: "subscribe", projectId: 42 },
      { type: "subscribe", projectId: "x".repeat(65) },
      "subscribe",
      null,
    ];
    for (const message of bad) expect(clientSocketMessageSchema.safeParse(message).success).toBe(false);
    expect(clientSocketMessageSchema.safeParse({ type: "subscribe", projectId: "x".repeat(64) }).success).toBe(true);
  });

  test("extra fields are dropped, not passed on", () => {
    expect(clientSocketMessageSchema.parse({ type: "subscribe", projectId: "p1", ownerId: "someone-else" })).toEqual({ type: "subscribe", projectId: "p1" });
  });

  test("the file event types are the four changes", () => {
    expect([...fileEventTypes]).toEqual(["file.created", "file.updated", "file.deleted", "file.renamed"]);
  });
});
