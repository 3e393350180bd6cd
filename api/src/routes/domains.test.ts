/**
 * Own domains over HTTP, against a DNS server the test runs on loopback (dns2, through DNS_SERVERS): add a
 * domain, verify it once its TXT record is there, then the site answers on that Host; `GET /api/tls/ask`
 * answers 200 for verified domains and live site names and 404 for anything else; every bad input; a
 * stranger's 404 on every route.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SiteDomain } from "@shared/schemas/domains";
import { type TestDnsServer, startDnsServer } from "../test/dns-server";
import { emailOf } from "../test/members";
import { deploymentsAfterBuild, eventually, newSiteProject, publish, publishInstance, type PublishInstance } from "../test/publish-support";
import type { TestUser } from "../test/test-app";

describe("own domains", () => {
  let dns: TestDnsServer;
  let a: PublishInstance;
  let alice: TestUser;
  let bob: TestUser;
  let projectId: string;
  const tag = crypto.randomUUID().slice(0, 8);
  const domain = `shop-${tag}.example.com`;
  const slug = `shop-${tag}`;

  const addDomain = async (user: TestUser, id: string, name: string) => {
    const res = await user.request("POST", `/api/projects/${id}/domains`, { domain: name });
    return { status: res.status, body: (await res.json()) as SiteDomain & { error?: string } };
  };
  const verify = async (user: TestUser, id: string, name: string) => {
    const res = await user.request("POST", `/api/projects/${id}/domains/${encodeURIComponent(name)}/verify`);
    return { status: res.status, body: (await res.json()) as SiteDomain & { error?: string } };
  };
  const byHost = (host: string, path = "/") => a.sites.handle(new Request(`http://127.0.0.1${path}`, { headers: { host } }));
  const ask = async (name: string) => (await a.app.request(`/api/tls/ask?domain=${encodeURIComponent(name)}`)).status;

  beforeAll(async () => {
    dns = await startDnsServer();
    a = await publishInstance({ env: { DNS_SERVERS: dns.address } });
    alice = a.user("alice");
    bob = a.user("bob");
    projectId = await newSiteProject(alice, "Shop", { "index.html": `<h1>shop ${tag}</h1>` });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await dns?.close();
  });

  test("POST adds it pending with the TXT record to create; again answers the same; GET lists it", async () => {
    const added = await addDomain(alice, projectId, ` ${domain.toUpperCase()}. `);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ domain, status: "pending", txtName: `_appbuilder.${domain}` });
    expect(added.body.txtValue).toMatch(/^appbuilder-verify=[A-Za-z0-9_-]{24}$/);
    const again = await addDomain(alice, projectId, domain);
    expect(again.status).toBe(200);
    expect(again.body.txtValue).toBe(added.body.txtValue);
    const list = (await (await alice.request("GET", `/api/projects/${projectId}/domains`)).json()) as SiteDomain[];
    expect(list.map((d) => [d.domain, d.status])).toEqual([[domain, "pending"]]);
  });

  test("verify without the record: 409 'record not found', naming the name looked up and the resolver", async () => {
    const res = await verify(alice, projectId, domain);
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("record not found");
    expect(res.body.error).toContain(`TXT _appbuilder.${domain}`);
    expect(res.body.error).toContain(dns.address);
    expect(dns.questions).toContain(`_appbuilder.${domain}`);
    // A wrong value is not enough, and the answer says what it found.
    dns.txt.set(`_appbuilder.${domain}`, ["appbuilder-verify=someone-else"]);
    const wrong = await verify(alice, projectId, domain);
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toContain('found only "appbuilder-verify=someone-else"');
  });

  test("with the record it is verified; once published, the site answers on that Host; tls/ask says yes", async () => {
    const { body: listed } = await addDomain(alice, projectId, domain);
    dns.txt.set(`_appbuilder.${domain}`, ["v=spf1 -all", listed.txtValue]);
    const res = await verify(alice, projectId, domain);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ domain, status: "verified" });
    expect(res.body.verifiedAt).toBeString();

    // Verified but not published: a site host with no site, never the app.
    await eventually(async () => byHost(domain) !== null);
    expect((await byHost(domain)!).status).toBe(404);
    expect(await ask(domain)).toBe(200);

    expect((await publish(alice, projectId, { slug })).status).toBe(200);
    expect((await deploymentsAfterBuild(alice, projectId))[0]!.status).toBe("live");
    await eventually(async () => (await byHost(`${domain.toUpperCase()}:443`))?.status === 200);
    const page = await byHost(domain, "/");
    expect(await page!.text()).toContain(`shop ${tag}`);
    expect(page!.headers.get("set-cookie")).toBeNull();
    expect(await ask(`${slug}.${a.deps.config.sites.domain}`)).toBe(200);
  });

  test("tls/ask: 404 for a pending domain, an unknown name, a site name with no live site, and nonsense", async () => {
    const pending = `pending-${tag}.example.org`;
    expect((await addDomain(alice, projectId, pending)).status).toBe(201);
    expect(await ask(pending)).toBe(404);
    expect(await ask(`nobody-${tag}.example.net`)).toBe(404);
    expect(await ask(`nothing-${tag}.${a.deps.config.sites.domain}`)).toBe(404);
    expect(await ask(a.deps.config.sites.domain)).toBe(404);
    expect(await ask("")).toBe(404);
    expect(await ask("../etc/passwd")).toBe(404);
    expect(await ask(`90-abcdefgh12.${a.deps.config.preview.domain}`)).toBe(404);
  });

  test("bad input: IPs, localhost, names under the sites domain, malformed names → 400 with the reason", async () => {
    const cases: [string, string][] = [
      ["203.0.113.7", "IP address"],
      ["[2001:db8::1]", "IP address"],
      ["2001:db8::1", "IP address"],
      ["localhost", "names this machine"],
      ["app.localhost", "names this machine"],
      [`x.${a.deps.config.sites.domain}`, `under ${a.deps.config.sites.domain}`],
      [a.deps.config.sites.domain, `under ${a.deps.config.sites.domain}`],
      ["not a domain", "not a valid domain name"],
      ["-bad.example.com", "not a valid domain name"],
      ["bad_label.example.com", "not a valid domain name"],
      ["example", "not a full domain name"],
      ["example.123", "ending cannot be a number"],
      ["https://shop.example.com/", "no https://"],
      ["", "Type a domain"],
      [`${"a".repeat(64)}.example.com`, "not a valid domain name"],
    ];
    for (const [name, reason] of cases) {
      const res = await addDomain(alice, projectId, name);
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect({ name, error: res.body.error }).toEqual({ name, error: expect.stringContaining(reason) });
    }
    const notJson = await alice.request("POST", `/api/projects/${projectId}/domains`, "nope");
    expect(notJson.status).toBe(400);
  });

  test("a domain another project holds verified → 409 on add and on verify; pending in both, the first verified wins", async () => {
    const bobs = await newSiteProject(bob, "Bob's", { "index.html": "<p>bob</p>" });
    const held = await addDomain(bob, bobs, domain);
    expect(held.status).toBe(409);
    expect(held.body.error).toContain("already used by another project");

    const contested = `contested-${tag}.example.com`;
    const mine = await addDomain(alice, projectId, contested);
    const theirs = await addDomain(bob, bobs, contested);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.txtValue).not.toBe(mine.body.txtValue);
    dns.txt.set(`_appbuilder.${contested}`, [mine.body.txtValue, theirs.body.txtValue]);
    expect((await verify(alice, projectId, contested)).status).toBe(200);
    const late = await verify(bob, bobs, contested);
    expect(late.status).toBe(409);
    expect(late.body.error).toContain("already used by another project");
  });

  test("another user's project: 404 on every domain route", async () => {
    const calls = [
      bob.request("GET", `/api/projects/${projectId}/domains`),
      bob.request("POST", `/api/projects/${projectId}/domains`, { domain: `x-${tag}.example.com` }),
      bob.request("POST", `/api/projects/${projectId}/domains/${domain}/verify`),
      bob.request("DELETE", `/api/projects/${projectId}/domains/${domain}`),
      bob.request("POST", `/api/projects/${projectId}/domains`, "not json"),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(404);
    const list = (await (await alice.request("GET", `/api/projects/${projectId}/domains`)).json()) as SiteDomain[];
    expect(list.find((d) => d.domain === domain)?.status).toBe("verified");
  });

  test("DELETE removes it: the Host is no site's any more, tls/ask says no; removing again is 404", async () => {
    const res = await alice.request("DELETE", `/api/projects/${projectId}/domains/${domain}`);
    expect(res.status).toBe(204);
    await eventually(async () => byHost(domain) === null);
    expect(await ask(domain)).toBe(404);
    expect((await alice.request("DELETE", `/api/projects/${projectId}/domains/${domain}`)).status).toBe(404);
  });

  test("the project's activity has each add (the first time), verify and removal, with who did it", async () => {
    const activity = (await (await alice.request("GET", `/api/projects/${projectId}/activity`)).json()) as {
      kind: string;
      detail: { domain?: string };
      actor: { email: string } | null;
    }[];
    const lines = activity.filter((a) => a.kind.startsWith("domain.")).map((a) => [a.kind, a.detail.domain, a.actor?.email]);
    const email = emailOf(alice);
    // Newest first: the earlier tests added `domain` (twice: one line), verified it, added the pending and
    // contested names, verified the contested one, and removed `domain`. Bob's refused tries are not there.
    expect(lines).toEqual([
      ["domain.removed", domain, email],
      ["domain.verified", `contested-${tag}.example.com`, email],
      ["domain.added", `contested-${tag}.example.com`, email],
      ["domain.added", `pending-${tag}.example.org`, email],
      ["domain.verified", domain, email],
      ["domain.added", domain, email],
    ]);
  });
});
