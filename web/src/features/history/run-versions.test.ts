import { expect, test } from "bun:test";
import { answersWithVersions } from "./run-versions";

test("only agent versions with a message id mark an answer as undoable", () => {
  const ids = answersWithVersions([
    { source: "agent", messageId: "m1" },
    { source: "agent", messageId: "m1" },
    { source: "agent" },
    { source: "user" },
    { source: "restore", messageId: "m9" },
    { source: "agent", messageId: "m2" },
  ]);
  expect([...ids].sort()).toEqual(["m1", "m2"]);
  expect(answersWithVersions(undefined).size).toBe(0);
});
