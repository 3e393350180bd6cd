/**
 * The deployment and site queries on the test database: one build at a time per project (a stale one failed
 * first), going live with a rename in one step or not at all, activation of ready builds only, pruning.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { newOwner, newProject } from "../test/db-rows";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import {
  activate,
  claimSlug,
  deleteSite,
  dropBuild,
  failBuild,
  findDeployment,
  findLiveSite,
  findSite,
  finishBuild,
  listDeployments,
  listLiveSites,
  liveVersionId,
  pruneDeployments,
  setBuildSlug,
  slugTaken,
  startBuild,
  statusOf,
} from "./deployments";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

const slug = () => `s-${crypto.randomUUID().slice(0, 8)}`;
const files = { "index.html": ["h1", 12, 420] } as never;
/** A build started and finished live. */
async function publish(projectId: string, versionId: string | null = null): Promise<string> {
  const id = crypto.randomUUID();
  expect(await startBuild(sql, { id, projectId, versionId }, 600)).toBe(true);
  expect(await finishBuild(sql, { id, projectId, files, bytes: 12, log: "ok" })).not.toBe("slug-taken");
  return id;
}

describe(`deployment queries (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("one build per project at a time; a stale one is failed so the next can start; a dropped one frees it", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
    const started = await Promise.all([
      startBuild(sql, { id: first, projectId: project, versionId: null }, 600),
      startBuild(sql, { id: second, projectId: project, versionId: null }, 600),
    ]);
    expect(started.sort()).toEqual([false, true]);
    const building = (await listDeployments(sql, project))[0]!;
    await sql`update deployments set created_at = now() - interval '20 minutes' where id = ${building.id}`;
    const third = crypto.randomUUID();
    expect(await startBuild(sql, { id: third, projectId: project, versionId: null }, 600)).toBe(true);
    const stale = (await findDeployment(sql, project, building.id))!;
    expect(stale.state).toBe("failed");
    expect(stale.buildLog).toContain("The build was abandoned");
    await dropBuild(sql, third);
    expect(await findDeployment(sql, project, third)).toBeNull();
    expect(await startBuild(sql, { id: crypto.randomUUID(), projectId: project, versionId: null }, 600)).toBe(true);
  });

  test("a finished build goes live on the site; the one before is superseded; a failed one is failed", async () => {
    const owner = await newOwner(sql);
    const project = await newProject(sql, owner);
    const name = slug();
    expect(await claimSlug(sql, project, name)).toBe(true);
    expect(await claimSlug(sql, project, slug())).toBe(false); // one site per project
    expect(await claimSlug(sql, await newProject(sql, owner), name)).toBe(false); // one project per slug
    expect(await slugTaken(sql, name)).toBe(true);
    const first = await publish(project);
    const second = await publish(project);
    const failed = crypto.randomUUID();
    await startBuild(sql, { id: failed, projectId: project, versionId: null }, 600);
    await failBuild(sql, failed, "npm run build exited 1");
    const list = await listDeployments(sql, project);
    expect(list.map((d) => [d.id, statusOf(d)])).toEqual([
      [failed, "failed"],
      [second, "live"],
      [first, "superseded"],
    ]);
    expect(list[1]!.bytes).toBe(12);
    expect(await findLiveSite(sql, name)).toEqual({ projectId: project, ownerId: owner, slug: name, deploymentId: second, kind: "static", files });
    expect(await listLiveSites(sql, owner)).toEqual([{ projectId: project, slug: name }]);
  });

  test("a rename is taken when the build goes live, and refused whole when the name was taken meanwhile", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const [before, after, rival] = [slug(), slug(), slug()];
    await claimSlug(sql, project, before);
    await publish(project);
    const renamed = crypto.randomUUID();
    await startBuild(sql, { id: renamed, projectId: project, versionId: null }, 600);
    await setBuildSlug(sql, renamed, after);
    expect((await findSite(sql, project))?.slug).toBe(before); // not until it is live
    expect(await finishBuild(sql, { id: renamed, projectId: project, files, bytes: 1, log: "" })).toEqual({ slug: after, previousSlug: before });
    expect(await findLiveSite(sql, before)).toBeNull();
    const blocked = crypto.randomUUID();
    await startBuild(sql, { id: blocked, projectId: project, versionId: null }, 600);
    await setBuildSlug(sql, blocked, rival);
    await claimSlug(sql, await newProject(sql, await newOwner(sql)), rival);
    expect(await finishBuild(sql, { id: blocked, projectId: project, files, bytes: 1, log: "" })).toBe("slug-taken");
    expect(await findSite(sql, project)).toEqual({ projectId: project, slug: after, liveDeploymentId: renamed });
    expect((await findDeployment(sql, project, blocked))?.state).toBe("building"); // rolled back with the rest
  });

  test("only a ready build of the project can be activated; deleting the site frees its name", async () => {
    const project = await newProject(sql, await newOwner(sql));
    const other = await newProject(sql, await newOwner(sql));
    const name = slug();
    await claimSlug(sql, project, name);
    const old = await publish(project);
    const current = await publish(project);
    const foreign = await publish(other);
    const building = crypto.randomUUID();
    await startBuild(sql, { id: building, projectId: project, versionId: null }, 600);
    expect((await findSite(sql, project))?.liveDeploymentId).toBe(current);
    expect(await activate(sql, project, foreign)).toBe(false);
    expect(await activate(sql, project, building)).toBe(false);
    expect(await activate(sql, project, old)).toBe(true);
    expect((await findSite(sql, project))?.liveDeploymentId).toBe(old);
    expect(await liveVersionId(sql, project)).toBeNull(); // built from no version
    expect(await deleteSite(sql, project)).toBe(name);
    expect(await slugTaken(sql, name)).toBe(false);
    expect(await liveVersionId(sql, project)).toBeUndefined();
  });

  test("pruning keeps the newest, the live one and a build in progress", async () => {
    const project = await newProject(sql, await newOwner(sql));
    await claimSlug(sql, project, slug());
    const live = await publish(project);
    const ids = [await publish(project), await publish(project), await publish(project)];
    await activate(sql, project, live);
    const building = crypto.randomUUID();
    await startBuild(sql, { id: building, projectId: project, versionId: null }, 600);
    expect(await pruneDeployments(sql, project, 2)).toBe(2);
    expect((await listDeployments(sql, project)).map((d) => d.id)).toEqual([building, ids[2]!, live]);
  });
});
