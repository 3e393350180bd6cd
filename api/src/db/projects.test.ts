/** The project queries on the test database: owner scoping, list order, the per-owner cap under parallel inserts, the model. */
import { beforeAll, describe, expect, test } from "bun:test";
import { newOwner, newProject } from "../test/db-rows";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import { deleteProject, findProject, findProjectModel, insertProjectWithinCap, listProjects, setProjectModel, touchProject } from "./projects";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

describe(`project queries (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a foreign project reads, changes and deletes as a missing one", async () => {
    const owner = await newOwner(sql);
    const stranger = await newOwner(sql);
    const id = await newProject(sql, owner, "mine");
    expect((await findProject(sql, owner, id))?.name).toBe("mine");
    expect(await findProject(sql, stranger, id)).toBeNull();
    expect(await listProjects(sql, stranger)).toEqual([]);
    expect(await deleteProject(sql, stranger, id)).toBe(false);
    expect(await findProject(sql, owner, id)).not.toBeNull();
    expect(await deleteProject(sql, owner, id)).toEqual({ sandboxId: null });
    expect(await findProject(sql, owner, id)).toBeNull();
  });

  test("the list is newest change first; a touch moves a project up", async () => {
    const owner = await newOwner(sql);
    const first = await newProject(sql, owner, "first");
    await Bun.sleep(5);
    const second = await newProject(sql, owner, "second");
    expect((await listProjects(sql, owner)).map((p) => p.id)).toEqual([second, first]);
    await Bun.sleep(5);
    await touchProject(sql, first);
    expect((await listProjects(sql, owner)).map((p) => p.id)).toEqual([first, second]);
  });

  test("the cap holds under parallel creations; 0 means no cap", async () => {
    const owner = await newOwner(sql);
    const tries = Array.from({ length: 6 }, (_, i) =>
      insertProjectWithinCap(sql, { id: crypto.randomUUID(), ownerId: owner, name: `p${i}`, description: null }, 3),
    );
    const results = await Promise.all(tries);
    expect(results.filter((r) => "project" in r).length).toBe(3);
    expect(results.filter((r) => "count" in r)).toEqual([{ count: 3 }, { count: 3 }, { count: 3 }]);
    expect((await listProjects(sql, owner)).length).toBe(3);
    const open = await insertProjectWithinCap(sql, { id: crypto.randomUUID(), ownerId: owner, name: "more", description: "d" }, 0);
    expect("project" in open && open.project.description).toBe("d");
  });

  test("the project's model: null until set by its owner", async () => {
    const owner = await newOwner(sql);
    const id = await newProject(sql, owner);
    expect(await findProjectModel(sql, id)).toBeNull();
    expect(await setProjectModel(sql, id, "qwen3:8b")).toBe(true);
    expect(await findProjectModel(sql, id)).toBe("qwen3:8b");
    expect(await findProjectModel(sql, crypto.randomUUID())).toBeNull();
  });
});
