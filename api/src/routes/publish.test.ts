/**
 * Publishing a project with no build step (its files as they are) over HTTP, on a local store and on S3:
 * the site on its host, caching, compression, ETags, ranges, path tricks, slugs, rollback, unpublish,
 * and a second instance on the same database and store. Renames, limits, history and deletion:
 * publish-lifecycle.test.ts. Builds in a sandbox: services/publish/publish-build.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Deployment, SiteState } from "@shared/schemas/publish";
import { deploymentsAfterBuild, eventually, newSiteProject, publish, publishInstance, type PublishInstance } from "../test/publish-support";
import type { TestUser } from "../test/test-app";
import { dbLabel, openStore, STORE_KINDS, stopStores } from "../test/versions-support";

afterAll(() => stopStores());

// Unique per run: both stores share one test database, whose blob rows would otherwise say "stored" for the other store.
const bigJs = (kind: string) => `export const data = ${JSON.stringify(`${kind}-${crypto.randomUUID()}-${"x".repeat(5000)}`)};\n`.repeat(4);

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
      for (const path of [
        "/%2e%2e/%2e%2e/etc/passwd",
        "/assets/%2e%2e/%2e%2e/x",
        "/a%00b",
        "/..%2f..%2fx",
        "/a%5c..%5cb",
        "/%zz",
        "//etc/passwd",
        "/assets//app-B2q4Gw9b.js",
      ]) {
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
