/**
 * Publishing a project with no build step (its files as they are) over HTTP, on a local store and on S3:
 * the site on its host, caching, compression, ETags, ranges, path tricks, slugs, rollback, unpublish,
 * and a second instance on the same database and store; renaming a site, the size limit, the history kept
 * and deleting a published project. Builds in a sandbox: services/publish/publish-build.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Deployment, PublishResult, SiteState } from "@shared/schemas/publish";
import { blobKey } from "../db/blobs";
import { pruneDeployments } from "../db/deployments";
import { sha256Hex } from "../services/versions/snapshot";
import { deploymentsAfterBuild, eventually, publishInstance, type PublishInstance } from "../test/publish-support";
import type { TestUser } from "../test/test-app";
import { dbLabel, openStore, STORE_KINDS, stopStores } from "../test/versions-support";

afterAll(() => stopStores());

// Unique per run: both stores share one test database, whose blob rows would otherwise say "stored" for the other store.
const bigJs = (kind: string) => `export const data = ${JSON.stringify(`${kind}-${crypto.randomUUID()}-${"x".repeat(5000)}`)};\n`.repeat(4);

async function newSiteProject(user: TestUser, name: string, files: Record<string, string>): Promise<string> {
  const res = await user.request("POST", "/api/projects", { name });
  const { id } = (await res.json()) as { id: string };
  for (const [path, content] of Object.entries(files)) {
    const r = await user.request("POST", `/api/files/${id}`, { path, content });
    if (r.status !== 201 && r.status !== 200) throw new Error(`create ${path}: ${r.status} ${await r.text()}`);
  }
  return id;
}

const publish = async (user: TestUser, projectId: string, body: object = {}) => {
  const res = await user.request("POST", `/api/projects/${projectId}/publish`, body);
  return { status: res.status, body: (await res.json()) as PublishResult & { error?: string } };
};

for (const kind of STORE_KINDS) {
  describe(`publish a static site (${dbLabel()}, ${kind} store)`, () => {
    const BIG_JS = bigJs(kind);
    const tag = crypto.randomUUID();
    let a: PublishInstance;
    let b: PublishInstance;
    let alice: TestUser;
    let projectId: string;
    const slug = `shop-${kind}-${crypto.randomUUID().slice(0, 6)}`;

    beforeAll(async () => {
      const store = await openStore(kind);
      a = await publishInstance({ store });
      b = await publishInstance({ store });
      alice = a.user("alice");
      projectId = await newSiteProject(alice, "My Shop", {
        "index.html": `<!doctype html><html><head><script type="module" src="/assets/app-B2q4Gw9b.js"></script></head><body>v1 ${tag}</body></html>`,
        "assets/app-B2q4Gw9b.js": BIG_JS,
        "about/index.html": `<h1>About</h1>${tag}`,
        "robots.txt": `User-agent: * ${tag}`,
        ".env": "SECRET=1",
      });
    }, 120_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    test("POST publish answers at once with the deployment, its URL and 'building'; then it is live", async () => {
      const res = await publish(alice, projectId, { slug });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("building");
      expect(res.body.url).toBe(`http://${slug}.sites.localhost:3000`);
      const list = await deploymentsAfterBuild(alice, projectId);
      expect(list[0]!.id).toBe(res.body.deploymentId);
      expect(list[0]!.status).toBe("live");
      expect(list[0]!.versionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(list[0]!.bytes).toBeGreaterThan(BIG_JS.length);
      expect(list[0]!.url).toBe(res.body.url);
    });

    test("the site answers on its host: index.html, hashed asset immutable, HTML no-cache, no cookies", async () => {
      const index = await a.site(slug, "/");
      expect(index.status).toBe(200);
      expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(index.headers.get("cache-control")).toBe("no-cache");
      expect(index.headers.get("x-content-type-options")).toBe("nosniff");
      expect(index.headers.get("set-cookie")).toBeNull();
      expect(await index.text()).toContain("v1");
      const js = await a.site(slug, "/assets/app-B2q4Gw9b.js");
      expect(js.status).toBe(200);
      expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(await js.text()).toBe(BIG_JS);
      expect((await a.site(slug, "/about/")).status).toBe(200);
      expect(await (await a.site(slug, "/about")).text()).toBe(`<h1>About</h1>${tag}`);
    });

    test("a deep link falls back to index.html; an unknown asset and dot-files are 404", async () => {
      const deep = await a.site(slug, "/products/42");
      expect(deep.status).toBe(200);
      expect(await deep.text()).toContain("v1");
      expect((await a.site(slug, "/assets/missing-Abcdefgh.js")).status).toBe(404);
      expect(await (await a.site(slug, "/.env")).text()).not.toContain("SECRET"); // not published: a route, so index.html
      expect((await a.site("no-such-site-here", "/")).status).toBe(404);
    });

    test("brotli and gzip by Accept-Encoding, with Vary; ETag answers 304; Range answers 206", async () => {
      const br = await a.site(slug, "/assets/app-B2q4Gw9b.js", { "accept-encoding": "gzip, deflate, br" });
      expect(br.headers.get("content-encoding")).toBe("br");
      expect(br.headers.get("vary")).toBe("Accept-Encoding");
      const brBytes = new Uint8Array(await br.arrayBuffer());
      expect(brBytes.length).toBeLessThan(BIG_JS.length / 10);
      const gz = await a.site(slug, "/assets/app-B2q4Gw9b.js", { "accept-encoding": "gzip" });
      expect(gz.headers.get("content-encoding")).toBe("gzip");
      expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toBe(BIG_JS);
      const etag = gz.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{32}-gzip"$/);
      const again = await a.site(slug, "/assets/app-B2q4Gw9b.js", { "if-none-match": etag, "accept-encoding": "gzip" });
      expect(again.status).toBe(304);
      const range = await a.site(slug, "/assets/app-B2q4Gw9b.js", { range: "bytes=7-12" });
      expect(range.status).toBe(206);
      expect(range.headers.get("content-range")).toBe(`bytes 7-12/${BIG_JS.length}`);
      expect(await range.text()).toBe(BIG_JS.slice(7, 13));
      expect((await a.site(slug, "/assets/app-B2q4Gw9b.js", { range: `bytes=${BIG_JS.length + 5}-` })).status).toBe(416);
    });

    test("path tricks answer 400 or 404, never a file outside the deployment", async () => {
      for (const path of ["/%2e%2e/%2e%2e/etc/passwd", "/assets/%2e%2e/%2e%2e/x", "/a%00b", "/..%2f..%2fx", "/a%5c..%5cb", "/%zz", "//etc/passwd", "/assets//app-B2q4Gw9b.js"]) {
        const res = await a.site(slug, path);
        const body = await res.text();
        expect(body).not.toContain("root:");
        // `%2e%2e` segments are folded by the URL parser (what is left is a path inside the site, here a
        // client-side route, so index.html); everything else is refused.
        if (res.status === 200) expect(body).toContain("v1");
        else expect([400, 404]).toContain(res.status);
      }
      expect((await a.site(slug, "/a%00b")).status).toBe(400);
      expect((await a.site(slug, "/..%2f..%2fx")).status).toBe(400);
      // Bun's URL parser folds a literal /../ before the server sees it: what is left stays inside the site.
      const folded = await a.site(slug, "/../../robots.txt");
      expect(await folded.text()).toBe(`User-agent: * ${tag}`);
      expect((await a.site(slug, "/__proto__")).status).toBe(200); // a route: index.html, not Object.prototype
      expect((await a.site(slug, "/constructor.js")).status).toBe(404);
    });

    test("no app API on a site's origin; only GET and HEAD", async () => {
      const api = await a.site(slug, "/api/projects", { authorization: `Bearer ${alice.token}` });
      expect(await api.text()).not.toContain(projectId);
      const post = a.sites.handle(new Request("http://x/api/projects", { method: "POST", headers: { host: `${slug}.sites.localhost` } }));
      expect((await post!).status).toBe(405);
    });

    test("a second instance on the same database and store serves the same site", async () => {
      const res = await b.site(slug, "/assets/app-B2q4Gw9b.js");
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(BIG_JS);
    });

    test("roll back switches content at once; unpublish answers 404 at once on both instances", async () => {
      const first = (await deploymentsAfterBuild(alice, projectId))[0]!;
      const files = (await (await alice.request("GET", `/api/files/${projectId}`)).json()) as { id: string; path: string }[];
      const index = files.find((f) => f.path === "index.html")!;
      expect((await alice.request("PATCH", `/api/files/${index.id}/content`, { content: `<body>v2 ${tag}</body>` })).status).toBe(200);
      const state = (await (await alice.request("GET", `/api/projects/${projectId}/publish`)).json()) as SiteState;
      expect(state.unpublishedChanges).toBe(true);
      expect((await publish(alice, projectId)).body.url).toBe(first.url); // the slug stays
      const list = await deploymentsAfterBuild(alice, projectId);
      expect(list.map((d) => d.status).slice(0, 2)).toEqual(["live", "superseded"]);
      expect(await (await a.site(slug, "/")).text()).toContain("v2");
      await eventually(async () => (await (await b.site(slug, "/")).text()).includes("v2"));
      const after = (await (await alice.request("GET", `/api/projects/${projectId}/publish`)).json()) as SiteState;
      expect(after.unpublishedChanges).toBe(false);

      const rolled = await alice.request("POST", `/api/projects/${projectId}/deployments/${first.id}/activate`);
      expect(rolled.status).toBe(200);
      expect(((await rolled.json()) as Deployment).status).toBe("live");
      expect(await (await a.site(slug, "/")).text()).toContain("v1");
      await eventually(async () => (await (await b.site(slug, "/")).text()).includes("v1"));
      const statuses = (await deploymentsAfterBuild(alice, projectId)).map((d) => d.status);
      expect(statuses.slice(0, 2)).toEqual(["superseded", "live"]);

      expect((await alice.request("DELETE", `/api/projects/${projectId}/publish`)).status).toBe(204);
      expect((await a.site(slug, "/")).status).toBe(404);
      await eventually(async () => (await b.site(slug, "/")).status === 404);
      expect((await alice.request("DELETE", `/api/projects/${projectId}/publish`)).status).toBe(404);
    });

    test("owner-checked: another user gets 404 everywhere", async () => {
      const bob = a.user("bob");
      expect((await bob.request("POST", `/api/projects/${projectId}/publish`, {})).status).toBe(404);
      expect((await bob.request("GET", `/api/projects/${projectId}/deployments`)).status).toBe(404);
      expect((await bob.request("DELETE", `/api/projects/${projectId}/publish`)).status).toBe(404);
      const first = (await deploymentsAfterBuild(alice, projectId)).at(-1)!;
      expect((await bob.request("POST", `/api/projects/${projectId}/deployments/${first.id}/activate`)).status).toBe(404);
    });
  });
}

describe(`site names (${dbLabel()})`, () => {
  let a: PublishInstance;
  beforeAll(async () => {
    a = await publishInstance();
  }, 120_000);
  afterAll(() => a?.close());

  test("malformed or reserved names answer 400 with a message; a taken one 409; the default comes from the project name", async () => {
    const alice = a.user("alice");
    const bob = a.user("bob");
    const p1 = await newSiteProject(alice, "Café Olé!", { "index.html": "hi" });
    for (const [slug, message] of [
      ["Has Caps", "lowercase"],
      ["under_score", "lowercase"],
      ["-dash", "hyphen"],
      ["www", "reserved"],
      ["admin", "reserved"],
      ["a".repeat(41), "at most"],
    ] as const) {
      const res = await publish(alice, p1, { slug });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
    }
    const unique = `taken-${crypto.randomUUID().slice(0, 8)}`;
    expect((await publish(alice, p1, { slug: unique })).status).toBe(200);
    await deploymentsAfterBuild(alice, p1);
    const p2 = await newSiteProject(bob, "Other", { "index.html": "hi" });
    const taken = await publish(bob, p2, { slug: unique });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toContain("taken");
    // A refused name leaves no build behind: nothing listed, and the next publish is not told one is running.
    expect(await (await bob.request("GET", `/api/projects/${p2}/deployments`)).json()).toEqual([]);
    expect((await publish(bob, p2, { slug: `${unique}-2` })).status).toBe(200);
    await deploymentsAfterBuild(bob, p2);

    const p3 = await newSiteProject(alice, "Café Olé!", { "index.html": "hi" });
    const state = (await (await alice.request("GET", `/api/projects/${p3}/publish`)).json()) as SiteState;
    expect(state.slug).toBeNull();
    expect(state.suggestedSlug).toBe("cafe-ole");
    const auto = await publish(alice, p3);
    expect(auto.body.url).toMatch(/^http:\/\/cafe-ole(-[0-9a-f]{4})?\.sites\.localhost:3000$/);
    await deploymentsAfterBuild(alice, p3);
    const sites = (await (await alice.request("GET", "/api/sites")).json()) as { projectId: string; url: string }[];
    expect(sites.map((s) => s.projectId).sort()).toEqual([p1, p3].sort());
  });

  test("a second publish while one is building answers 409", async () => {
    const alice = a.user("alice");
    const p = await newSiteProject(alice, "Busy", { "index.html": "hi" });
    const [one, two] = await Promise.all([publish(alice, p), publish(alice, p)]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    expect((one.status === 409 ? one : two).body.error).toContain("already being published");
    await deploymentsAfterBuild(alice, p);
  });

  test("the publish rate limit answers 429", async () => {
    const limited = await publishInstance({ env: { RATE_LIMIT_PUBLISH_PER_MINUTE: "1" } });
    try {
      const alice = limited.user("alice");
      const p = await newSiteProject(alice, "Limited", { "index.html": "hi" });
      expect((await publish(alice, p)).status).toBe(200);
      await deploymentsAfterBuild(alice, p);
      expect((await publish(alice, p)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

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
