/** The upload queries on the test database: attaching keeps an upload, the sweep takes only old unattached ones, each once. */
import { beforeAll, describe, expect, test } from "bun:test";
import { newOwner, newProject } from "../test/db-rows";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import { deleteStaleUploads, insertUpload, markUploadsAttached } from "./uploads";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

const backdate = (projectId: string, seconds: number) =>
  sql`update uploads set created_at = now() - make_interval(secs => ${seconds}) where project_id = ${projectId}`;

describe(`upload queries (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("the sweep deletes old unattached uploads only, and returns what it deleted", async () => {
    const project = await newProject(sql, await newOwner(sql));
    for (const name of ["kept.png", "old.png", "sent.png"]) await insertUpload(sql, { projectId: project, name, size: 10 });
    await markUploadsAttached(sql, project, ["sent.png", "not-there.png"]);
    await markUploadsAttached(sql, project, []);
    await sql`update uploads set created_at = now() - interval '2 days' where project_id = ${project} and name <> 'kept.png'`;
    // Other tests' uploads may be stale too: only this project's rows are looked at.
    const deleted = (await deleteStaleUploads(sql, 86_400, 1000)).filter((u) => u.projectId === project);
    expect(deleted).toEqual([{ projectId: project, name: "old.png" }]);
    const left = await sql<{ name: string }[]>`select name from uploads where project_id = ${project} order by name`;
    expect(left.map((r) => r.name)).toEqual(["kept.png", "sent.png"]);
  });

  test("each sweep takes at most `limit`, and parallel sweeps never return the same row", async () => {
    const project = await newProject(sql, await newOwner(sql));
    for (let i = 0; i < 6; i++) await insertUpload(sql, { projectId: project, name: `i${i}.png`, size: 1 });
    await backdate(project, 10 * 86_400);
    const mine: string[] = [];
    // Other suites sharing the database may leave stale uploads too: sweep until this project's are gone.
    for (let round = 0; round < 10 && mine.length < 6; round++) {
      const sweeps = await Promise.all([deleteStaleUploads(sql, 9 * 86_400, 4), deleteStaleUploads(sql, 9 * 86_400, 4)]);
      for (const swept of sweeps) expect(swept.length).toBeLessThanOrEqual(4);
      mine.push(
        ...sweeps
          .flat()
          .filter((u) => u.projectId === project)
          .map((u) => u.name),
      );
    }
    expect(mine.sort()).toEqual(["i0.png", "i1.png", "i2.png", "i3.png", "i4.png", "i5.png"]);
  });
});
