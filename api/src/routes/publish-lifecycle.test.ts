/**
 * A published site over its life, over HTTP on two instances sharing a database and a local store: a new
 * site name taken only when its build goes live, MAX_DEPLOYMENT_BYTES, DEPLOYMENTS_KEEP pruning (never the
 * live deployment), and deleting a published project. Serving and slugs: publish.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Deployment, SiteState } from "@shared/schemas/publish";
import { blobKey } from "../db/blobs";
import { pruneDeployments } from "../db/deployments";
import { sha256Hex } from "../services/versions/snapshot";
import { deploymentsAfterBuild, eventually, newSiteProject, publish, publishInstance, type PublishInstance } from "../test/publish-support";
import type { TestUser } from "../test/test-app";
import { dbLabel, openStore, stopStores } from "../test/versions-support";

afterAll(() => stopStores());

describe(`renames, limits, history and deletion (${dbLabel()})`, () => {
  let a: PublishInstance;
  let b: PublishInstance;
  let alice: TestUser;
  const env = { DEPLOYMENTS_KEEP: "2", MAX_DEPLOYMENT_BYTES: "20000" };

  beforeAll(async () => {
    const store = await openStore("local");
    a = await publishInstance({ store, env });
    b = await publishInstance({ store, env });
    alice = a.user("alice");
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const setFile = async (projectId: string, path: string, content: string) => {
    const files = (await (await alice.request("GET", `/api/files/${projectId}`)).json()) as { id: string; path: string }[];
    const file = files.find((f) => f.path === path);
    const res = file
      ? await alice.request("PATCH", `/api/files/${file.id}/content`, { content })
      : await alice.request("POST", `/api/files/${projectId}`, { path, content });
    if (res.status !== 200 && res.status !== 201) throw new Error(`write ${path}: ${res.status} ${await res.text()}`);
  };
  const siteState = async (projectId: string) => (await (await alice.request("GET", `/api/projects/${projectId}/publish`)).json()) as SiteState;

  test("a new site name goes live with its build: a failed build leaves the old name serving and the new one unanswered", async () => {
    const tag = crypto.randomUUID();
    const oldSlug = `old-${tag.slice(0, 8)}`;
    const newSlug = `new-${tag.slice(0, 8)}`;
    const p = await newSiteProject(alice, "Renamed", { "index.html": `v1 ${tag}` });
    expect((await publish(alice, p, { slug: oldSlug })).status).toBe(200);
    const [first] = await deploymentsAfterBuild(alice, p);
    expect(first!.status).toBe("live");
    expect((await b.site(newSlug, "/")).status).toBe(404); // b now remembers "no site" for the new name

    // A name another site holds is refused before any build, and the site keeps serving.
    const other = await newSiteProject(alice, "Other", { "index.html": `other ${tag}` });
    const otherSlug = `other-${tag.slice(0, 8)}`;
    expect((await publish(alice, other, { slug: otherSlug })).status).toBe(200);
    await deploymentsAfterBuild(alice, other);
    const taken = await publish(alice, p, { slug: otherSlug });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toContain("taken");
    expect((await deploymentsAfterBuild(alice, p)).map((d) => d.id)).toEqual([first!.id]);

    // A broken build under the new name: nothing moves.
    await setFile(p, "index.html", `v2 ${tag}`);
    await setFile(p, "package.json", "{ not json");
    const started = await publish(alice, p, { slug: newSlug });
    expect(started.status).toBe(200);
    expect(started.body.url).toBe(`http://${newSlug}.sites.localhost:3000`);
    const [failed, stillLive] = await deploymentsAfterBuild(alice, p);
    expect(failed!.status).toBe("failed");
    expect(failed!.buildLog).toContain("package.json is not valid JSON");
    expect(stillLive!.id).toBe(first!.id);
    expect(stillLive!.status).toBe("live");
    expect(await (await a.site(oldSlug, "/")).text()).toBe(`v1 ${tag}`);
    expect(await (await b.site(oldSlug, "/")).text()).toBe(`v1 ${tag}`);
    expect((await a.site(newSlug, "/")).status).toBe(404);
    expect((await siteState(p)).slug).toBe(oldSlug);

    // A good build under the new name: it serves there, and the old name stops answering, on both instances.
    await setFile(p, "package.json", JSON.stringify({ name: "renamed" }));
    expect((await publish(alice, p, { slug: newSlug })).status).toBe(200);
    const [live] = await deploymentsAfterBuild(alice, p);
    expect(live!.status).toBe("live");
    expect(live!.url).toBe(`http://${newSlug}.sites.localhost:3000`);
    expect(await (await a.site(newSlug, "/")).text()).toBe(`v2 ${tag}`);
    expect((await a.site(oldSlug, "/")).status).toBe(404);
    await eventually(async () => (await (await b.site(newSlug, "/")).text()) === `v2 ${tag}`);
    await eventually(async () => (await b.site(oldSlug, "/")).status === 404);
    expect((await siteState(p)).slug).toBe(newSlug);
  });

  test("a deployment over MAX_DEPLOYMENT_BYTES fails with a log naming the limit; the live one stays", async () => {
    const tag = crypto.randomUUID();
    const p = await newSiteProject(alice, "Heavy", { "index.html": `small ${tag}` });
    expect((await publish(alice, p)).status).toBe(200);
    const [first] = await deploymentsAfterBuild(alice, p);
    expect(first!.status).toBe("live");
    const slug = new URL(first!.url).hostname.split(".")[0]!;

    await setFile(p, "assets/big-B2q4Gw9b.js", `// ${tag}\n${"x".repeat(30_000)}\n`);
    expect((await publish(alice, p)).status).toBe(200);
    const [refused, stillLive] = await deploymentsAfterBuild(alice, p);
    expect(refused!.status).toBe("failed");
    expect(refused!.buildLog).toContain("over the 19.5 KB a deployment may hold (MAX_DEPLOYMENT_BYTES)");
    expect(stillLive!.id).toBe(first!.id);
    expect(stillLive!.status).toBe("live");
    expect(await (await a.site(slug, "/")).text()).toBe(`small ${tag}`);
    expect((await a.site(slug, "/assets/big-B2q4Gw9b.js")).status).toBe(404);
  });

  test("DEPLOYMENTS_KEEP: older deployments are pruned after a publish, never the live one; their blobs stay for the sweep", async () => {
    const tag = crypto.randomUUID();
    const p = await newSiteProject(alice, "History", { "index.html": `v1 ${tag}` });
    const ids: string[] = [];
    for (const v of ["v1", "v2", "v3"]) {
      await setFile(p, "index.html", `${v} ${tag}`);
      expect((await publish(alice, p)).status).toBe(200);
      ids.push((await deploymentsAfterBuild(alice, p))[0]!.id);
    }
    const [d1, d2, d3] = ids as [string, string, string];
    const list = await deploymentsAfterBuild(alice, p);
    expect(list.map((d) => [d.id, d.status])).toEqual([
      [d3, "live"],
      [d2, "superseded"],
    ]);
    // The pruned deployment's files are not deleted with its row: the retention sweep removes them once
    // no version or deployment names them (here the version of v1 still does).
    expect(await a.deps.store.get(blobKey(sha256Hex(new TextEncoder().encode(`v1 ${tag}`))))).not.toBeNull();
    expect((await alice.request("POST", `/api/projects/${p}/deployments/${d1}/activate`)).status).toBe(404);

    // Rolled back to the older one: pruning to the newest one keeps it as well, being live.
    expect((await alice.request("POST", `/api/projects/${p}/deployments/${d2}/activate`)).status).toBe(200);
    expect(await pruneDeployments(a.deps.sql, p, 1)).toBe(0);
    expect((await deploymentsAfterBuild(alice, p)).map((d) => [d.id, d.status])).toEqual([
      [d3, "superseded"],
      [d2, "live"],
    ]);

    // Published again: the new one is live, and the rolled-back one, no longer live, is pruned.
    await setFile(p, "index.html", `v4 ${tag}`);
    expect((await publish(alice, p)).status).toBe(200);
    const after = await deploymentsAfterBuild(alice, p);
    expect(after.map((d) => d.status)).toEqual(["live", "superseded"]);
    expect(after[1]!.id).toBe(d3);
    const slug = new URL((await siteState(p)).url!).hostname.split(".")[0]!;
    expect(await (await a.site(slug, "/")).text()).toBe(`v4 ${tag}`);
  });

  test("deleting a published project takes its site down at once, on every instance", async () => {
    const tag = crypto.randomUUID();
    const slug = `doomed-${tag.slice(0, 8)}`;
    const p = await newSiteProject(alice, "Doomed", { "index.html": `bye ${tag}` });
    expect((await publish(alice, p, { slug })).status).toBe(200);
    expect((await deploymentsAfterBuild(alice, p))[0]!.status).toBe("live");
    // Both instances now hold the site in their caches.
    expect(await (await a.site(slug, "/")).text()).toBe(`bye ${tag}`);
    expect(await (await b.site(slug, "/")).text()).toBe(`bye ${tag}`);

    expect((await alice.request("DELETE", `/api/projects/${p}`)).status).toBe(200);
    expect((await a.site(slug, "/")).status).toBe(404);
    // Well under the site cache's 30 s: only the event could have cleared it.
    await eventually(async () => (await b.site(slug, "/")).status === 404, 3000);
  });
});
