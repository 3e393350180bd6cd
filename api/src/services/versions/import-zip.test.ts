import { afterAll, describe, expect, test } from "bun:test";
import JSZip from "jszip";
import * as fileRows from "../../db/files";
import { listVersions } from "../../db/versions";
import { AppError } from "../../lib/errors";
import { listProjects } from "../projects";
import { importProjectZip, type ImportLimits } from "./import-zip";
import { dbLabel, newProject, openStore, serviceContext, STORE_KINDS, stopStores } from "../../test/versions-support";

afterAll(() => stopStores());

const LIMITS: ImportLimits = { maxFiles: 5, maxTotalBytes: 64 * 1024, maxFileBytes: 16 * 1024, maxRatio: 200 };

const zipOf = (add: (zip: JSZip) => void) => {
  const zip = new JSZip();
  add(zip);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", platform: "UNIX" });
};

for (const kind of STORE_KINDS) {
  const salt = `${kind}-${crypto.randomUUID()}`;
  describe(`importProjectZip (${dbLabel()}, ${kind} store)`, () => {
    test("files keep their bytes, the common folder goes, and the import is the first version", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId } = await newProject(ctx);
      const binary = Uint8Array.from([0, 255, 1, 254, ...new TextEncoder().encode(salt)]);
      const zip = await zipOf((z) => {
        z.file("site/index.html", `<p>${salt}</p>\n`);
        z.file("site/img/dot.bin", binary);
        z.file("site/.git/config", "[core]\n");
        z.file("site/node_modules/a/index.js", "1");
        z.file("site/.DS_Store", "junk");
        z.file("site/.bash_history", "ls\n");
        z.file("site/.python_history", "import os\n");
        z.file("site/.npm/_logs/debug.log", "log");
        z.file("site/.cache/pip/x", "cache");
      });
      const project = await importProjectZip(ctx, ownerId, { zip, fileName: "site.zip" }, LIMITS);
      expect(project.name).toBe("site");
      const rows = await fileRows.listFiles(ctx.sql, project.id);
      expect(rows.map((r) => r.path)).toEqual(["img/dot.bin", "index.html"]);
      expect(await ctx.store.get(rows[0]!.storageKey)).toEqual(binary);
      const versions = await listVersions(ctx.sql, project.id, { limit: 5 });
      expect(versions.map((v) => [v.source, v.label, v.filesChanged])).toEqual([["manual", "Imported from site.zip", 2]]);
    });

    test("without one common folder, paths are kept as they are", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId } = await newProject(ctx);
      const zip = await zipOf((z) => {
        z.file("a/one.txt", salt);
        z.file("b/two.txt", salt);
      });
      const project = await importProjectZip(ctx, ownerId, { zip, name: "Two folders" }, LIMITS);
      expect((await fileRows.listFiles(ctx.sql, project.id)).map((r) => r.path)).toEqual(["a/one.txt", "b/two.txt"]);
    });

    test("over a limit: 413 and no project", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId } = await newProject(ctx);
      const before = (await listProjects(ctx, ownerId)).length;
      const cases: [Promise<Uint8Array>, string][] = [
        [zipOf((z) => Array.from({ length: 6 }, (_, i) => z.file(`f${i}.txt`, salt))), "at most 5"],
        [zipOf((z) => z.file("big.txt", "x".repeat(16 * 1024 + 1))), "a file may be at most"],
        [zipOf((z) => [1, 2, 3, 4, 5].forEach((i) => z.file(`p${i}.txt`, `${i}`.repeat(15 * 1024)))), "a project may hold at most"],
      ];
      for (const [zip, message] of cases) {
        const error = (await importProjectZip(ctx, ownerId, { zip: await zip }, LIMITS).catch((e: unknown) => e)) as AppError;
        expect(error).toBeInstanceOf(AppError);
        expect([error.status, error.message]).toEqual([413, expect.stringContaining(message)]);
      }
      expect((await listProjects(ctx, ownerId)).length).toBe(before);
    });
  });
}
