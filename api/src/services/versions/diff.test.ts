import { afterAll, describe, expect, test } from "bun:test";
import { projectAccess } from "../access";
import { grantedAccess, ownerFileAccess } from "../../test/access";
import * as fileRows from "../../db/files";
import type { Manifest } from "../../db/versions";
import { AppError } from "../../lib/errors";
import { deleteProjectFile, renameProjectFile, writeFileAtPath } from "../files";
import { CURRENT, diffManifests, diffVersions } from "./diff";
import { takeVersion } from "./snapshot";
import { dbLabel, newProject, openStore, serviceContext, STORE_KINDS, stopStores } from "../../test/versions-support";

afterAll(() => stopStores());

describe("diffManifests", () => {
  test("added, removed, changed and renamed paths", () => {
    const from: Manifest = { "a.ts": ["h1", 1, 420], "b.ts": ["h2", 2, 420], "c.ts": ["h3", 3, 420], "same.ts": ["h9", 9, 420] };
    const to: Manifest = { "a.ts": ["h1x", 4, 420], "moved/b.ts": ["h2", 2, 420], "d.ts": ["h4", 5, 420], "same.ts": ["h9", 9, 420] };
    expect(diffManifests(from, to)).toEqual({
      added: [{ path: "d.ts", sha256: "h4", size: 5 }],
      removed: [{ path: "c.ts", sha256: "h3", size: 3 }],
      changed: [{ path: "a.ts", size: 4, fromSha256: "h1", toSha256: "h1x", fromSize: 1 }],
      renamed: [{ from: "b.ts", to: "moved/b.ts", sha256: "h2", size: 2 }],
    });
  });

  test("two removed copies and one added copy: one rename, one removal", () => {
    const diff = diffManifests({ "x/1": ["h", 1, 420], "x/2": ["h", 1, 420] }, { "y/1": ["h", 1, 420] });
    expect(diff.renamed).toEqual([{ from: "x/1", to: "y/1", sha256: "h", size: 1 }]);
    expect(diff.removed.map((e) => e.path)).toEqual(["x/2"]);
    expect(diff.added).toEqual([]);
  });
});

// Diffs read content by hash from the store, so both kinds of store are exercised.
for (const kind of STORE_KINDS) {
  describe(`diffVersions (${dbLabel()}, ${kind} store)`, () => {
    test("between versions and against the current files, with unified diffs for text only", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      const salt = crypto.randomUUID();
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "src/app.ts", `const title = "Old";\nrender(title);\n// ${salt}\n`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "notes.md", `notes ${salt}\n`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "image.bin", new TextEncoder().encode(`\u0000old image ${salt}`));
      const { file: gone } = await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "gone.txt", `bye ${salt}\n`);
      const { version: older } = await takeVersion(ctx, { projectId, source: "manual", label: "Older" });

      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "src/app.ts", `const title = "New";\nrender(title);\n// ${salt}\n`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "image.bin", new TextEncoder().encode(`\u0000new image ${salt}`));
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "src/added.ts", `export {}; // ${salt}\n`);
      await deleteProjectFile(ctx, await ownerFileAccess(ctx, ownerId, gone.id), gone.id);
      const notes = (await fileRows.findFileByPath(ctx.sql, projectId, "notes.md"))!;
      await renameProjectFile(ctx, await ownerFileAccess(ctx, ownerId, notes.id), notes.id, "docs/notes.md");
      const { version: newer } = await takeVersion(ctx, { projectId, source: "manual", label: "Newer" });

      const diff = await diffVersions(ctx, grantedAccess(ownerId, projectId), older.id, newer.id, { patch: true });
      expect(diff.added.map((e) => e.path)).toEqual(["src/added.ts"]);
      expect(diff.removed.map((e) => e.path)).toEqual(["gone.txt"]);
      expect(diff.changed.map((e) => e.path)).toEqual(["image.bin", "src/app.ts"]);
      expect(diff.renamed.map((e) => [e.from, e.to])).toEqual([["notes.md", "docs/notes.md"]]);
      expect(diff.patches).toEqual([
        { path: "gone.txt", patch: `--- a/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye ${salt}\n` },
        { path: "src/added.ts", patch: `--- /dev/null\n+++ b/src/added.ts\n@@ -0,0 +1,1 @@\n+export {}; // ${salt}\n` },
        {
          path: "src/app.ts",
          patch: `--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,3 +1,3 @@\n-const title = "Old";\n+const title = "New";\n render(title);\n // ${salt}\n`,
        },
      ]);

      // Without ?patch no file is read; "current" compares with the files as they are now.
      expect((await diffVersions(ctx, grantedAccess(ownerId, projectId), older.id, newer.id)).patches).toBeUndefined();
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "later.txt", "after the newer version");
      const againstNow = await diffVersions(ctx, grantedAccess(ownerId, projectId), newer.id, CURRENT);
      expect(againstNow).toMatchObject({ to: "current", added: [{ path: "later.txt" }], removed: [], changed: [], renamed: [] });
    });

    test("someone else's project or an unknown version is not found", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const alice = await newProject(ctx, "alice");
      const bob = await newProject(ctx, "bob");
      const { version } = await takeVersion(ctx, { projectId: alice.projectId, source: "manual", label: "A", force: true });
      for (const attempt of [
        () => projectAccess(ctx, bob.ownerId, alice.projectId, "view"),
        () => diffVersions(ctx, grantedAccess(bob.ownerId, bob.projectId), version.id, CURRENT),
        () => diffVersions(ctx, grantedAccess(alice.ownerId, alice.projectId), version.id, crypto.randomUUID()),
      ]) {
        const error = (await attempt().catch((e: unknown) => e)) as AppError;
        expect(error).toBeInstanceOf(AppError);
        expect(error.status).toBe(404);
      }
    });
  });
}
