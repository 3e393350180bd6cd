import { expect, test } from "bun:test";
import { avatarLetter } from "./user-avatar";

test("the avatar letter is the name's first letter, upper-cased, else U", () => {
  expect(avatarLetter("ada Lovelace")).toBe("A");
  expect(avatarLetter("  zoë")).toBe("Z");
  expect(avatarLetter("")).toBe("U");
  expect(avatarLetter(null)).toBe("U");
});
