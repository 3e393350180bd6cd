/**
 * Server deployments in real local sandboxes (issue 22, items 1-4): a project with a `start` script is published
 * as a server and its site proxies to it (any method); production gets the migrations; a start script that exits
 * at once or never listens, and a migration with a syntax error, fail the publish with the log while the live
 * deployment keeps serving; an idle server sleeps and the next request wakes it; past MAX_LIVE_SERVERS_PER_USER
 * the least recently used sleeps; the logs endpoint answers the server's lines, and 404 to another user; a
 * server build's client assets are scanned for secrets (a finding fails the publish) and kept with the
 * deployment, so a wake whose sandbox is gone starts from that build instead of building again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PublishResult } from "@shared/schemas/publish";
import { grantedAccess } from "../../test/access";
import { appDatabasesContext } from "../../test/app-databases";
import { localSuiteGate } from "../../test/local-sandbox-support";
import { deploymentsAfterBuild, eventually, publishInstance, type PublishInstance } from "../../test/publish-support";
import type { TestUser } from "../../test/test-app";
import { withProjectDatabase } from "../app-databases";
import { writeFileAtPath } from "../files";

const SERVER = (label: string) => `import { createServer } from "node:http";
createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ label: ${JSON.stringify(label)}, method: req.method, body, db: process.env.DATABASE_URL ?? null, secretless: !process.env.SECRET_X }));
  });
}).listen(Number(process.env.PORT), "0.0.0.0", () => console.log("Started: serving ${label}"));
`;

if (await localSuiteGate("server publish", { sameOnEveryDatabase: true })) {
  describe("server deployments", () => {
    let dbs: Awaited<ReturnType<typeof appDatabasesContext>>;
    let a: PublishInstance;
    let alice: TestUser;

    beforeAll(async () => {
      dbs = await appDatabasesContext();
      a = await publishInstance({
        env: { PUBLISH_START_TIMEOUT_S: "8", SITE_IDLE_S: "3", MAX_LIVE_SERVERS_PER_USER: "1", SANDBOX_DISK_MB: "0" },
        appDatabases: dbs.appDatabases,
        productionDatabases: dbs.productionDatabases,
      });
      alice = a.user("alice");
    }, 120_000);
    afterAll(async () => {
      await a?.deps.servers?.close();
      await a?.deps.sandboxes.shutdown();
      await a?.close();
      await dbs?.closeAppDatabases();
    });

    const newProject = async (user: TestUser, files: Record<string, string>) => {
      const id = ((await (await user.request("POST", "/api/projects", { name: "Server App" })).json()) as { id: string }).id;
      for (const [path, text] of Object.entries(files)) await writeFileAtPath(a.deps, grantedAccess(user.uid, id), path, text);
      return id;
    };
    const write = (user: TestUser, id: string, path: string, text: string) => writeFileAtPath(a.deps, grantedAccess(user.uid, id), path, text);
    const publish = async (user: TestUser, id: string, body: object = {}) =>
      (await (await user.request("POST", `/api/projects/${id}/publish`, body)).json()) as PublishResult;
    const pkg = (start: string) => JSON.stringify({ name: "srv", private: true, scripts: { start } });

    test("published as a server: proxied, production migrated; bad starts and a bad migration fail with logs while v1 stays live", async () => {
      const id = await newProject(alice, {
        "package.json": pkg("node server.js"),
        "server.js": SERVER("v1"),
        "db/migrations/001_init.sql": "create table todos (id serial primary key, title text not null);",
      });
      const slug = `srv-${crypto.randomUUID().slice(0, 8)}`;
      await publish(alice, id, { slug });
      const [live] = await deploymentsAfterBuild(alice, id);
      expect(live!.buildLog).toContain("publishing as a server");
      expect(live!.status).toBe("live");

      const res = await a.site(slug, "/x?y=1", { "content-type": "text/plain" }, { method: "POST", body: "hello" });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { label: string; method: string; body: string; db: string };
      expect(answer).toMatchObject({ label: "v1", method: "POST", body: "hello" });
      expect(answer.db).toContain("@127.0.0.1:5432/");
      // Production has the migration; development does not.
      await withProjectDatabase(
        dbs,
        id,
        async (sql) => expect((await sql`select name from _migrations`).map((r) => r.name)).toEqual(["001_init.sql"]),
        "production",
      );
      await withProjectDatabase(dbs, id, async (sql) => expect((await sql`select to_regclass('public.todos') as t`)[0]!.t).toBeNull());

      // The logs endpoint: the server's own output; another user's project is 404.
      const logs = (await (await alice.request("GET", `/api/projects/${id}/deployments/${live!.id}/logs`)).json()) as { lines: string[] };
      expect(logs.lines.some((l) => l.includes("Started: serving v1"))).toBe(true);
      expect((await a.user("mallory").request("GET", `/api/projects/${id}/deployments/${live!.id}/logs`)).status).toBe(404);

      // A start script that exits at once.
      await write(alice, id, "package.json", pkg("node -e \"console.log('bye now'); process.exit(3)\""));
      await publish(alice, id);
      let [failed] = await deploymentsAfterBuild(alice, id);
      expect(failed!.status).toBe("failed");
      expect(failed!.buildLog).toContain("exited while starting");
      expect(failed!.buildLog).toContain("bye now");
      expect(((await (await a.site(slug, "/")).json()) as { label: string }).label).toBe("v1");

      // One that never listens.
      await write(alice, id, "package.json", pkg("node -e \"console.log('just waiting'); setInterval(() => {}, 1000)\""));
      await publish(alice, id);
      [failed] = await deploymentsAfterBuild(alice, id);
      expect(failed!.status).toBe("failed");
      expect(failed!.buildLog).toContain("did not answer HTTP on PORT");
      expect(failed!.buildLog).toContain("just waiting");
      expect(((await (await a.site(slug, "/")).json()) as { label: string }).label).toBe("v1");

      // A migration with a syntax error: failed, production unchanged, v1 still live.
      await write(alice, id, "package.json", pkg("node server.js"));
      await write(alice, id, "server.js", SERVER("v2"));
      await write(alice, id, "db/migrations/002_bad.sql", "alter table todos add column done boolean;\nselec oops;");
      await publish(alice, id);
      [failed] = await deploymentsAfterBuild(alice, id);
      expect(failed!.status).toBe("failed");
      expect(failed!.buildLog).toContain("db/migrations/002_bad.sql failed (line 2)");
      await withProjectDatabase(
        dbs,
        id,
        async (sql) => {
          expect((await sql`select name from _migrations`).map((r) => r.name)).toEqual(["001_init.sql"]);
          expect((await sql`select column_name from information_schema.columns where table_name = 'todos' and column_name = 'done'`).length).toBe(0);
        },
        "production",
      );
      expect(((await (await a.site(slug, "/")).json()) as { label: string }).label).toBe("v1");

      // Fixed: v2 goes live with its migration; rolling back to v1 serves v1's code over the same data.
      await write(alice, id, "db/migrations/002_bad.sql", "alter table todos add column done boolean not null default false;");
      await publish(alice, id);
      const [v2] = await deploymentsAfterBuild(alice, id);
      expect(v2!.status).toBe("live");
      expect(((await (await a.site(slug, "/")).json()) as { label: string }).label).toBe("v2");
      expect((await alice.request("POST", `/api/projects/${id}/deployments/${live!.id}/activate`)).status).toBe(200);
      await eventually(async () => ((await (await a.site(slug, "/")).json()) as { label: string }).label === "v1", 30_000);
      await withProjectDatabase(
        dbs,
        id,
        async (sql) => expect((await sql`select name from _migrations order by name`).map((r) => r.name)).toEqual(["001_init.sql", "002_bad.sql"]),
        "production",
      );
    }, 600_000);

    test("a server build's output is scanned for secrets, then kept: a new sandbox starts from it without building", async () => {
      const servers = a.deps.servers!;
      const carol = a.user("carol");
      const secret = `pk-live-${crypto.randomUUID()}`;
      const id = await newProject(carol, {
        "package.json": JSON.stringify({ name: "built", private: true, type: "module", scripts: { build: "node build.js", start: "node server.js" } }),
        // Like Vite with a VITE_ variable: the build writes an environment value into a client file.
        "build.js": `import { mkdirSync, writeFileSync } from "node:fs";
const stamp = Date.now() + "-" + Math.random();
mkdirSync("dist/assets", { recursive: true });
writeFileSync("dist/index.html", "<p>build " + stamp + "</p>");
writeFileSync("dist/assets/app.js", "window.KEY = " + JSON.stringify(process.env.PUBLIC_KEY ?? "") + ";");
console.log("BUILD RAN " + stamp);
`,
        "server.js": `import { createServer } from "node:http";
import { readFileSync } from "node:fs";
createServer((req, res) => res.end(readFileSync("dist/index.html"))).listen(Number(process.env.PORT), "0.0.0.0");
`,
      });
      expect((await carol.request("PUT", `/api/projects/${id}/secrets/PUBLIC_KEY`, { value: secret })).status).toBeLessThan(300);
      const slug = `built-${crypto.randomUUID().slice(0, 8)}`;

      // The secret reached the client assets: refused, naming the file and the rule; its server is gone.
      await publish(carol, id, { slug });
      const [refused] = await deploymentsAfterBuild(carol, id);
      expect(refused!.status).toBe("failed");
      expect(refused!.buildLog).toContain("dist/assets/app.js:1: project-secret: the value of the project secret PUBLIC_KEY");
      expect(refused!.buildLog).not.toContain(secret);
      expect(servers.state(refused!.id)).toBeNull();
      expect((await a.site(slug, "/")).status).toBe(404);

      // Published anyway: live, with the finding recorded.
      await publish(carol, id, { allowFindings: true });
      const [live] = await deploymentsAfterBuild(carol, id);
      expect(live!.status).toBe("live");
      expect(live!.findings?.map((f) => f.file)).toEqual(["dist/assets/app.js"]);
      expect(live!.buildLog).toContain("Kept the build's dist/ with the deployment (2 files)");
      const first = await (await a.site(slug, "/")).text();
      expect(first).toStartWith("<p>build ");

      // Its sandbox is gone (the sandbox's own idle stop): the next request starts a new one from the kept build.
      await servers.killSandboxNow(live!.id);
      expect(await (await a.site(slug, "/")).text()).toBe(first);
      const logs = ((await (await carol.request("GET", `/api/projects/${id}/deployments/${live!.id}/logs`)).json()) as { lines: string[] }).lines.join("\n");
      expect(logs).toContain("its sandbox stopped; starting it again");
      expect(logs).toContain("Starting from the build kept with this deployment");
      expect(logs.match(/BUILD RAN/g)?.length).toBe(1);
    }, 600_000);

    test("sleeps when idle and wakes on the next request; past the per-user limit the least recently used sleeps", async () => {
      const servers = a.deps.servers!;
      const bob = a.user("bob");
      const one = await newProject(bob, { "package.json": pkg("node server.js"), "server.js": SERVER("one") });
      const two = await newProject(bob, { "package.json": pkg("node server.js"), "server.js": SERVER("two") });
      const slugOne = `one-${crypto.randomUUID().slice(0, 8)}`;
      const slugTwo = `two-${crypto.randomUUID().slice(0, 8)}`;
      await publish(bob, one, { slug: slugOne });
      const [d1] = await deploymentsAfterBuild(bob, one);
      expect(d1!.status).toBe("live");
      expect(servers.state(d1!.id)).toBe("running");

      // SITE_IDLE_S is 3 here: asleep after it, and the next request wakes it.
      await eventually(async () => servers.state(d1!.id) === "sleeping", 15_000);
      const started = performance.now();
      expect(((await (await a.site(slugOne, "/")).json()) as { label: string }).label).toBe("one");
      expect(performance.now() - started).toBeLessThan(8_000);
      expect(servers.state(d1!.id)).toBe("running");
      const logs = (await (await bob.request("GET", `/api/projects/${one}/deployments/${d1!.id}/logs`)).json()) as { lines: string[] };
      expect(logs.lines.join("\n")).toContain("asleep: no request for 3 s");
      expect(logs.lines.join("\n")).toContain("waking up for a request");

      // MAX_LIVE_SERVERS_PER_USER is 1: publishing the second puts the first to sleep, and a visitor of the first
      // is still served, putting the second to sleep.
      await publish(bob, two, { slug: slugTwo });
      const [d2] = await deploymentsAfterBuild(bob, two);
      expect(d2!.status).toBe("live");
      expect(servers.state(d1!.id)).toBe("sleeping");
      expect(((await (await a.site(slugOne, "/")).json()) as { label: string }).label).toBe("one");
      expect(servers.state(d2!.id)).toBe("sleeping");
      expect(servers.state(d1!.id)).toBe("running");

      // Unpublishing stops the server at once (not at its next idle sweep), and so does deleting the project.
      expect((await bob.request("DELETE", `/api/projects/${one}/publish`)).status).toBeLessThan(300);
      expect(servers.state(d1!.id)).toBeNull();
      await a.site(slugTwo, "/");
      expect(servers.state(d2!.id)).toBe("running");
      expect((await bob.request("DELETE", `/api/projects/${two}`)).status).toBe(200);
      expect(servers.state(d2!.id)).toBeNull();
    }, 600_000);
  });
}
