/**
 * Deployment files are content-addressed blobs shared with versions: stored once, and kept by the blob
 * sweep while a deployment names them (and only then).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { blobKey } from "../../db/blobs";
import * as rows from "../../db/deployments";
import { dbLabel, newProject, openStore, serviceContext, STORE_KINDS, stopStores } from "../../test/versions-support";
import { sweepBlobs } from "../versions/retention";
import { sha256Hex } from "../versions/snapshot";
import { storeDeploymentFiles } from "./store-files";

afterAll(() => stopStores());

for (const kind of STORE_KINDS) {
  describe(`deployment files (${dbLabel()}, ${kind} store)`, () => {
    test("stored once by hash; the sweep keeps them while a deployment names them", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { projectId } = await newProject(ctx);
      const unique = new TextEncoder().encode(`console.log(${JSON.stringify(crypto.randomUUID())})`);
      const files = [
        { path: "assets/a-B2q4Gw9b.js", bytes: unique },
        { path: "assets/copy-C3r5Hx0c.js", bytes: unique },
      ];
      const { manifest, bytes } = await storeDeploymentFiles(ctx, files);
      expect(bytes).toBe(unique.length * 2);
      expect(manifest["assets/a-B2q4Gw9b.js"]![0]).toBe(sha256Hex(unique));
      expect(manifest["assets/copy-C3r5Hx0c.js"]![0]).toBe(sha256Hex(unique));
      const key = blobKey(sha256Hex(unique));
      expect(await ctx.store.get(key)).toEqual(unique);

      const id = crypto.randomUUID();
      expect(await rows.startBuild(ctx.sql, { id, projectId, versionId: null }, 3600)).toBe(true);
      await rows.claimSlug(ctx.sql, projectId, `keep-${crypto.randomUUID().slice(0, 8)}`);
      await rows.finishBuild(ctx.sql, { id, projectId, files: manifest, bytes, log: "" });
      await sweepBlobs(ctx, 0);
      expect(await ctx.store.get(key)).toEqual(unique);

      await rows.deleteSite(ctx.sql, projectId);
      await ctx.sql`delete from deployments where id = ${id}`;
      await sweepBlobs(ctx, 0);
      expect(await ctx.store.get(key)).toBeNull();
    });
  });
}
