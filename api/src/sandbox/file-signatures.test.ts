/** The echo filter both providers' watchers use (local: inode, size, mtime; E2B: size and mtime from getInfo). */
import { expect, test } from "bun:test";
import { FileSignatures } from "./file-signatures";

test("the echo of our own write is dropped; a command's change is news once, however many events it makes", () => {
  const known = new FileSignatures();
  known.set("src/a.ts", "3:1000"); // our write
  expect(known.isNews("src/a.ts", "3:1000")).toBe(false); // its CREATE event
  expect(known.isNews("src/a.ts", "3:1000")).toBe(false); // and its WRITE event
  expect(known.isNews("src/a.ts", "5:2000")).toBe(true); // a command rewrote it
  expect(known.isNews("src/a.ts", "5:2000")).toBe(false); // a second event of that same change
  expect(known.isNews("src/b.ts", "1:2000")).toBe(true); // a file we never wrote
  known.set("src/a.ts", "7:3000"); // we write again: the command's version is not what it looks like now
  expect(known.isNews("src/a.ts", "5:2000")).toBe(true);
});

test("what was known starts with the listing; removes forget a folder's files; renames carry them, minus refused paths", () => {
  const known = new FileSignatures([
    ["src/a.ts", "1"],
    ["src/lib/b.ts", "2"],
    ["srcx.ts", "3"],
  ]);
  expect(known.isNews("src/a.ts", "1")).toBe(false);
  known.move("src", "app", (p) => !p.endsWith("b.ts"));
  expect(known.isNews("app/a.ts", "1")).toBe(false);
  expect(known.isNews("app/lib/b.ts", "2")).toBe(true); // refused by `keep`, so unknown
  expect(known.isNews("src/a.ts", "1")).toBe(true); // moved away
  expect(known.forgetUnder("app").sort()).toEqual(["app/a.ts", "app/lib/b.ts"]);
  expect(known.forgetUnder("src")).toEqual(["src/a.ts"]);
  expect(known.isNews("srcx.ts", "3")).toBe(false); // a sibling with the same prefix is kept
});
