/** The pull's three-way plan, path by path: who changed what since the last sync decides. */
import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../content-blobs";
import { mergeText, planPull } from "./merge";

const contents = new Map<string, Uint8Array>();
const put = (text: string | Uint8Array) => {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const sha = sha256Hex(bytes);
  contents.set(sha, bytes);
  return sha;
};
const read = async (sha: string) => contents.get(sha)!;
const side = (files: Record<string, string | Uint8Array>) => new Map(Object.entries(files).map(([p, t]) => [p, put(t)]));
const text = (change: { bytes?: Uint8Array }) => new TextDecoder().decode(change.bytes);

describe("planPull", () => {
  test("one side changed: the other gives way; the same change on both is no change", async () => {
    const base = side({ "a.txt": "a\n", "b.txt": "b\n", "gone.txt": "x\n", "same.txt": "s\n" });
    const ours = side({ "a.txt": "a ours\n", "b.txt": "b\n", "gone.txt": "x\n", "same.txt": "s2\n" });
    const theirs = side({ "a.txt": "a\n", "b.txt": "b theirs\n", "new.txt": "n\n", "same.txt": "s2\n" });
    const plan = await planPull({ base, ours, theirs, read });
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.map((c) => ("delete" in c ? `-${c.path}` : `${c.path}=${text(c)}`))).toEqual(["b.txt=b theirs\n", "-gone.txt", "new.txt=n\n"]);
  });

  test("text changed on both sides merges by line; overlapping lines, deletion against an edit, and binaries conflict", async () => {
    const binary = (n: number) => new Uint8Array([0, 1, 2, n]);
    const base = side({ "t.txt": "1\n2\n3\n4\n5\n", "c.txt": "x\n", "d.txt": "d\n", "img.png": binary(1) });
    const ours = side({ "t.txt": "one\n2\n3\n4\n5\n", "c.txt": "ours\n", "d.txt": "d edited\n", "img.png": binary(2) });
    const theirs = side({ "t.txt": "1\n2\n3\n4\nfive\n", "c.txt": "theirs\n", "img.png": binary(3) });
    const plan = await planPull({ base, ours, theirs, read });
    expect(plan.conflicts).toEqual(["c.txt", "d.txt", "img.png"]);
    expect(plan.merged).toEqual(["t.txt"]);
    expect(text(plan.changes[0] as { bytes: Uint8Array })).toBe("one\n2\n3\n4\nfive\n");
  });

  test("a binary changed only on the remote follows the remote", async () => {
    const plan = await planPull({
      base: side({ "i.png": new Uint8Array([0, 1]) }),
      ours: side({ "i.png": new Uint8Array([0, 1]) }),
      theirs: side({ "i.png": new Uint8Array([0, 2]) }),
      read,
    });
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes).toEqual([{ path: "i.png", bytes: new Uint8Array([0, 2]) }]);
  });
});

test("mergeText: a clean merge, or null when the sides overlap", () => {
  // Changes on neighbouring lines overlap, as in git; two lines apart they merge.
  expect(mergeText("a\nB\nc\nd\n", "a\nb\nc\nd\n", "a\nb\nc\nD\n")).toBe("a\nB\nc\nD\n");
  expect(mergeText("a\nB\nc\n", "a\nb\nc\n", "a\nb\nC\n")).toBeNull();
  expect(mergeText("a\nX\nc\n", "a\nb\nc\n", "a\nY\nc\n")).toBeNull();
});
