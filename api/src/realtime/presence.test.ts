import { describe, expect, test } from "bun:test";
import { presenceMessage, presentPeople } from "./presence";

const socket = (uid: string, name: string | null, email: string | null = null) => ({ data: { caller: { uid, name, email, picture: null } } });

describe("presentPeople", () => {
  test("lists each person once, in the order they arrived, by name or e-mail", () => {
    const people = presentPeople([socket("a", "Ana Lopez"), socket("b", null, "bo@example.com"), socket("a", "Ana Lopez")]);
    expect(people).toEqual([
      { id: "a", name: "Ana Lopez", picture: null },
      { id: "b", name: "bo", picture: null },
    ]);
  });

  test("an empty project has nobody in it", () => {
    expect(presenceMessage("p1", [])).toEqual({ type: "presence", projectId: "p1", people: [] });
  });
});
