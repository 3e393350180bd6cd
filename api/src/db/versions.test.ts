import { describe, expect, test } from "bun:test";
import { deltaOf, overlay, type Manifest } from "./versions";

describe("manifest deltas", () => {
  test("a delta holds added and changed entries, and null for removed paths; overlay rebuilds the manifest", () => {
    const base: Manifest = { "a.ts": ["h1", 1, 420], "b.ts": ["h2", 2, 420], "c.ts": ["h3", 3, 420] };
    const next: Manifest = { "a.ts": ["h1", 1, 420], "b.ts": ["h2x", 5, 420], "d.ts": ["h4", 4, 420] };
    const delta = deltaOf(base, next);
    expect(delta).toEqual({ "b.ts": ["h2x", 5, 420], "c.ts": null, "d.ts": ["h4", 4, 420] });
    expect(overlay(base, delta)).toEqual(next);
    expect(base["c.ts"]).toEqual(["h3", 3, 420]); // the shared base is never modified
  });

  test("a mode change alone is a change", () => {
    expect(deltaOf({ "run.sh": ["h", 1, 0o644] }, { "run.sh": ["h", 1, 0o755] })).toEqual({ "run.sh": ["h", 1, 0o755] });
  });
});
