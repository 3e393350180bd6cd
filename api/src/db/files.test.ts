/** The file queries on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL): owner scoping, path clashes, content swaps, usage. */
import { beforeAll, describe, expect, test } from "bun:test";
import { newOwner, newProject } from "../test/db-rows";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import {
  deleteFileRow,
  findFileByPath,
  findFileInProject,
  findFileProjectId,
  findPathClash,
  insertFile,
  listFiles,
  projectUsage,
  renameFile,
  replaceFileContent,
  toPublicFile,
} from "./files";
import { insertUpload } from "./uploads";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

const add = (projectId: string, path: string, size = 1) =>
  insertFile(sql, { id: crypto.randomUUID(), projectId, path, size, storageKey: `k/${crypto.randomUUID()}`, sha256: "a".repeat(64) });

describe(`file queries (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a file is found by id only within its project, its project by its id, and listed by path", async () => {
    const owner = await newOwner(sql);
    const project = await newProject(sql, owner);
    const other = await newProject(sql, owner);
    const b = await add(project, "src/b.ts");
    await add(project, "README.md");
    expect((await listFiles(sql, project)).map((f) => f.path)).toEqual(["README.md", "src/b.ts"]);
    expect(await findFileInProject(sql, project, b.id)).toEqual(b);
    expect(await findFileInProject(sql, other, b.id)).toBeNull();
    expect(await findFileProjectId(sql, b.id)).toBe(project);
    expect(await findFileProjectId(sql, crypto.randomUUID())).toBeNull();
    expect(await findFileByPath(sql, project, "src/b.ts")).toEqual(b);
    expect(await findFileByPath(sql, project, "src/B.ts")).toBeNull();
    expect(toPublicFile(b)).not.toHaveProperty("storageKey");
    expect(Number.isNaN(Date.parse(b.updatedAt))).toBe(false);
  });

  test("a path clashes with a file at one of its folders or with files inside it as a folder", async () => {
    const project = await newProject(sql, await newOwner(sql));
    await add(project, "a/b");
    await add(project, "c/d/e.ts");
    await add(project, "ab.ts");
    expect(await findPathClash(sql, project, "a/b/c.ts")).toBe("a/b"); // a/b is a file, not a folder
    expect(await findPathClash(sql, project, "c/d")).toBe("c/d/e.ts"); // c/d is a folder
    expect(await findPathClash(sql, project, "c")).toBe("c/d/e.ts");
    expect(await findPathClash(sql, project, "a")).toBe("a/b");
    expect(await findPathClash(sql, project, "ab")).toBeNull(); // ab.ts shares a prefix, not a folder
    expect(await findPathClash(sql, project, "c/d/f.ts")).toBeNull();
    // A rename of a/b itself to a/b/x does not clash with the file being renamed.
    expect(await findPathClash(sql, project, "a/b/x", "a/b")).toBeNull();
    expect(await findPathClash(sql, await newProject(sql, await newOwner(sql)), "a/b/c.ts")).toBeNull();
  });

  test("replacing content returns the content it replaced (key, hash, size); rename and delete return the row", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const file = await add(project, "x.ts", 3);
    const replaced = await replaceFileContent(sql, { id: file.id, size: 7, storageKey: "k/new", sha256: "b".repeat(64) });
    expect(replaced?.previous).toEqual({ storageKey: file.storageKey, sha256: "a".repeat(64), size: 3 });
    expect(replaced?.file).toMatchObject({ id: file.id, path: "x.ts", size: 7, storageKey: "k/new", sha256: "b".repeat(64) });
    expect(await replaceFileContent(sql, { id: crypto.randomUUID(), size: 1, storageKey: "k", sha256: "c".repeat(64) })).toBeNull();
    expect(await renameFile(sql, file.id, "y.ts")).toMatchObject({ id: file.id, path: "y.ts", storageKey: "k/new" });
    expect(await renameFile(sql, crypto.randomUUID(), "z.ts")).toBeNull();
    expect(await deleteFileRow(sql, file.id)).toMatchObject({ id: file.id, path: "y.ts" });
    expect(await deleteFileRow(sql, file.id)).toBeNull();
    expect(await listFiles(sql, project)).toEqual([]);
  });

  test("one path per project: a second insert at the same path is refused", async () => {
    const project = await newProject(sql, await newOwner(sql));
    await add(project, "same.ts");
    await expect(add(project, "same.ts")).rejects.toMatchObject({ code: "23505" });
    await add(await newProject(sql, await newOwner(sql)), "same.ts"); // another project may
  });

  test("usage counts the project's files and adds its uploads' bytes", async () => {
    const project = await newProject(sql, await newOwner(sql));
    expect(await projectUsage(sql, project)).toEqual({ files: 0, bytes: 0 });
    await add(project, "a.ts", 100);
    await add(project, "b.ts", 20);
    await insertUpload(sql, { projectId: project, name: "img.png", size: 3_000_000_000 }); // past int4
    await add(await newProject(sql, await newOwner(sql)), "other.ts", 999);
    expect(await projectUsage(sql, project)).toEqual({ files: 2, bytes: 3_000_000_120 });
  });
});
