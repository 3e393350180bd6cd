/**
 * /api/projects/{id}/git… and POST /api/projects/import (JSON) on the real app and database against a real
 * git smart-HTTP server (git http-backend behind basic auth on 127.0.0.1, test/git-server.ts): connect,
 * first push, push refused when the remote moved (and forced), a git CLI commit pulled as a version, a clean
 * three-way merge and a 409 conflict that changes nothing, import by URL, wrong credentials, a missing
 * branch, the outbound URL rules, and 404 for another user's project on every route.
 */
import { existsSync, mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "bun:test";
import type { GitPullResult, GitPushResult, GitStatus } from "@shared/schemas/git";
import { startGitServer } from "../test/git-server";
import { type TestUser, testApp } from "../test/test-app";

const USER = "gitbot";
const TOKEN = "tok-9f8e7d6c5b4a";
const server = await startGitServer({ username: USER, password: TOKEN });
const t = await testApp({ env: { GIT_ALLOW_HTTP: "true", GIT_ALLOW_PRIVATE_HOSTS: "true", GIT_TIMEOUT_S: "20" } });
afterAll(async () => {
  server.close();
  await t.deps.sandboxes.shutdown();
});
const alice = t.user("alice");
const bob = t.user("bob");

let repos = 0;
const newRepo = () => {
  const name = `repo${++repos}`;
  return { name, url: server.createRepo(name) };
};
async function project(owner: TestUser = alice, files: Record<string, string> = {}): Promise<string> {
  const id = ((await (await owner.request("POST", "/api/projects", { name: "Git" })).json()) as { id: string }).id;
  for (const [path, content] of Object.entries(files)) await write(owner, id, path, content);
  return id;
}
const write = async (owner: TestUser, id: string, path: string, content: string) =>
  expect((await owner.request("POST", `/api/files/${id}`, { path, content })).status).toBeLessThan(300);
async function fileText(owner: TestUser, id: string, path: string): Promise<string | null> {
  const list = (await (await owner.request("GET", `/api/files/${id}`)).json()) as { id: string; path: string }[];
  const file = list.find((f) => f.path === path);
  if (!file) return null;
  return ((await (await owner.request("GET", `/api/files/${id}/${file.id}`)).json()) as { content: string }).content;
}
const connect = (owner: TestUser, id: string, body: Record<string, unknown>) => owner.request("PUT", `/api/projects/${id}/git`, body);
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe("git remote", () => {
  test("connect, then a first push to an empty repository creates the branch, authored by the user", async () => {
    const repo = newRepo();
    const id = await project(alice, { "index.html": "<h1>Hello</h1>\n", "src/app.ts": "export const x = 1;\n" });
    const connected = await connect(alice, id, { url: repo.url, username: USER, token: TOKEN });
    expect(connected.status).toBe(200);
    const status = (await connected.json()) as GitStatus;
    expect(status).toMatchObject({ url: repo.url, branch: "main", autoPush: false, hasToken: true, ahead: 2, behind: 0, status: "ahead" });
    expect(JSON.stringify(status)).not.toContain(TOKEN);

    const pushed = await alice.request("POST", `/api/projects/${id}/git/push`, { message: "First version" });
    expect(pushed.status).toBe(200);
    const result = (await pushed.json()) as GitPushResult;
    expect(result).toMatchObject({ pushed: true, files: 2 });
    expect(server.git(["--git-dir", server.pathOf(repo.name), "rev-parse", "main"])).toBe(result.commit!);
    expect(server.show(repo.name, "src/app.ts")).toBe("export const x = 1;");
    expect(server.git(["--git-dir", server.pathOf(repo.name), "log", "-1", "--format=%an <%ae>|%s", "main"])).toBe("alice <alice@example.com>|First version");

    const after = (await (await alice.request("GET", `/api/projects/${id}/git`)).json()) as GitStatus;
    expect(after).toMatchObject({ ahead: 0, behind: 0, status: "up_to_date", lastPushedCommit: result.commit });
    expect(after.commits[0]).toMatchObject({ oid: result.commit, message: "First version", author: "alice" });

    // A second push with one changed file: a commit on top, its message the versions' labels by default.
    await write(alice, id, "index.html", "<h1>Hello again</h1>\n");
    const second = (await (await alice.request("POST", `/api/projects/${id}/git/push`, {})).json()) as GitPushResult;
    expect(second.pushed).toBe(true);
    expect(server.git(["--git-dir", server.pathOf(repo.name), "rev-list", "--count", "main"])).toBe("2");
    expect(server.show(repo.name, "index.html")).toBe("<h1>Hello again</h1>");
    expect(server.git(["--git-dir", server.pathOf(repo.name), "log", "-1", "--format=%s", "main"])).toBe("Edited in Files");

    // Disconnect: the status is gone, and push has nothing to push to.
    expect((await alice.request("DELETE", `/api/projects/${id}/git`)).status).toBe(204);
    expect(await (await alice.request("GET", `/api/projects/${id}/git`)).json()).toBeNull();
    expect((await alice.request("POST", `/api/projects/${id}/git/push`, {})).status).toBe(404);
  }, 60_000);

  test("a commit made with the git CLI is pulled as a version; a push after the remote moved is 409 until pulled or forced", async () => {
    const repo = newRepo();
    const id = await project(alice, { "README.md": "# App\n" });
    await connect(alice, id, { url: repo.url, username: USER, token: TOKEN });
    await alice.request("POST", `/api/projects/${id}/git/push`, {});
    const remoteCommit = server.commit(repo.name, { "src/new.ts": "export const fromRemote = true;\n" }, "Add new.ts on the remote");

    const status = (await (await alice.request("GET", `/api/projects/${id}/git`)).json()) as GitStatus;
    expect(status).toMatchObject({ behind: 1, ahead: 0, status: "behind" });

    await write(alice, id, "README.md", "# App, changed here\n");
    const refused = await alice.request("POST", `/api/projects/${id}/git/push`, {});
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toBe("The remote has changes: pull first.");

    const pulled = await alice.request("POST", `/api/projects/${id}/git/pull`);
    expect(pulled.status).toBe(200);
    const result = (await pulled.json()) as GitPullResult;
    expect(result).toMatchObject({ upToDate: false, commit: remoteCommit, written: 1, deleted: 0 });
    expect(await fileText(alice, id, "src/new.ts")).toBe("export const fromRemote = true;\n");
    expect(await fileText(alice, id, "README.md")).toBe("# App, changed here\n");
    const versions = (await (await alice.request("GET", `/api/projects/${id}/versions`)).json()) as { id: string; label: string }[];
    expect(versions[0]).toMatchObject({ id: result.versionId, label: `Pulled ${remoteCommit.slice(0, 7)}: Add new.ts on the remote` });

    const pulledStatus = (await (await alice.request("GET", `/api/projects/${id}/git`)).json()) as GitStatus;
    expect(pulledStatus.commits.map((c) => c.message)).toEqual(["Add new.ts on the remote", "Edited in Files"]);
    const again = (await (await alice.request("POST", `/api/projects/${id}/git/pull`)).json()) as GitPullResult;
    expect(again.upToDate).toBe(true);
    expect((await alice.request("POST", `/api/projects/${id}/git/push`, {})).status).toBe(200);
    expect(server.show(repo.name, "README.md")).toBe("# App, changed here");
    expect(server.show(repo.name, "src/new.ts")).toBe("export const fromRemote = true;");

    // force: the remote moved again, our files win in a commit on top of its head.
    server.commit(repo.name, { "README.md": "# Theirs\n" }, "Remote edit");
    await write(alice, id, "index.html", "<p>ours</p>\n");
    expect((await alice.request("POST", `/api/projects/${id}/git/push`, {})).status).toBe(409);
    const forced = await alice.request("POST", `/api/projects/${id}/git/push`, { force: true });
    expect(forced.status).toBe(200);
    expect(server.show(repo.name, "README.md")).toBe("# App, changed here");
    expect(server.git(["--git-dir", server.pathOf(repo.name), "log", "--format=%s", "main"]).split("\n")).toContain("Remote edit");
  }, 60_000);

  test("both sides changed: different files and different lines merge; the same line is a 409 with the file list, and nothing changes", async () => {
    const repo = newRepo();
    const lines = (n: number, edit: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => edit[i] ?? `line ${i}`).join("\n") + "\n";
    const id = await project(alice, { "a.txt": "a\n", "b.txt": "b\n", "notes.txt": lines(10) });
    await connect(alice, id, { url: repo.url, username: USER, token: TOKEN });
    await alice.request("POST", `/api/projects/${id}/git/push`, {});

    await write(alice, id, "a.txt", "a, ours\n");
    await write(alice, id, "notes.txt", lines(10, { 1: "ours on line 1" }));
    server.commit(repo.name, { "b.txt": "b, theirs\n", "notes.txt": lines(10, { 8: "theirs on line 8" }) }, "Theirs");
    const merged = await alice.request("POST", `/api/projects/${id}/git/pull`);
    expect(merged.status).toBe(200);
    expect(((await merged.json()) as GitPullResult).merged).toEqual(["notes.txt"]);
    expect(await fileText(alice, id, "a.txt")).toBe("a, ours\n");
    expect(await fileText(alice, id, "b.txt")).toBe("b, theirs\n");
    expect(await fileText(alice, id, "notes.txt")).toBe(lines(10, { 1: "ours on line 1", 8: "theirs on line 8" }));
    const status = (await (await alice.request("GET", `/api/projects/${id}/git`)).json()) as GitStatus;
    expect(status).toMatchObject({ behind: 0, ahead: 2, status: "ahead" });

    // Now the same line on both sides.
    await alice.request("POST", `/api/projects/${id}/git/push`, {});
    await write(alice, id, "notes.txt", lines(10, { 1: "ours on line 1", 8: "theirs on line 8", 4: "ours on 4" }));
    await write(alice, id, "a.txt", "a, ours again\n");
    server.commit(repo.name, { "notes.txt": lines(10, { 1: "ours on line 1", 8: "theirs on line 8", 4: "theirs on 4" }), "c.txt": "c\n" }, "Clash");
    const before = (await (await alice.request("GET", `/api/projects/${id}/versions`)).json()) as unknown[];
    const clash = await alice.request("POST", `/api/projects/${id}/git/pull`);
    expect(clash.status).toBe(409);
    const body = (await clash.json()) as { error: string; code: string; files: string[] };
    expect(body).toMatchObject({ code: "conflict", files: ["notes.txt"] });
    expect(body.error).toContain("notes.txt");
    expect(await fileText(alice, id, "c.txt")).toBeNull();
    expect(await fileText(alice, id, "a.txt")).toBe("a, ours again\n");
    expect(((await (await alice.request("GET", `/api/projects/${id}/versions`)).json()) as unknown[]).length).toBe(before.length);
  }, 60_000);

  test("import by URL: a project from the branch's files, connected and up to date; skipped entries listed", async () => {
    const repo = newRepo();
    server.commit(repo.name, { "package.json": '{"name":"imported"}\n', "src/main.ts": "console.log(1);\n", "node_modules/x/index.js": "junk\n" }, "Initial");
    const res = await alice.request("POST", "/api/projects/import", { gitUrl: repo.url, username: USER, token: TOKEN });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; name: string; git: { commit: string; skipped: unknown[] } };
    expect(created.name).toBe(repo.name);
    expect(await fileText(alice, created.id, "src/main.ts")).toBe("console.log(1);\n");
    expect(await fileText(alice, created.id, "node_modules/x/index.js")).toBeNull();
    const status = (await (await alice.request("GET", `/api/projects/${created.id}/git`)).json()) as GitStatus;
    expect(status).toMatchObject({ url: repo.url, status: "up_to_date", ahead: 0, behind: 0, lastPulledCommit: created.git.commit });

    const missing = await alice.request("POST", "/api/projects/import", { gitUrl: repo.url, branch: "nope", username: USER, token: TOKEN });
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toContain('"nope"');
  }, 60_000);

  test("wrong credentials are refused plainly, and credentials in the URL are moved out of it", async () => {
    const repo = newRepo();
    const id = await project();
    const wrong = await connect(alice, id, { url: repo.url, username: USER, token: "wrong-token" });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toStartWith("The remote refused the credentials (HTTP 401)");
    expect(await (await alice.request("GET", `/api/projects/${id}/git`)).json()).toBeNull();

    const inUrl = await connect(alice, id, { url: repo.url.replace("http://", `http://${USER}:${TOKEN}@`) });
    expect(inUrl.status).toBe(200);
    const status = (await inUrl.json()) as GitStatus;
    expect(status).toMatchObject({ url: repo.url, username: USER, hasToken: true });
    const [row] = await t.db.sql<{ url: string; token_sealed: string }[]>`select url, token_sealed from git_remotes where project_id = ${id}`;
    expect(row!.url).toBe(repo.url);
    expect(row!.token_sealed).not.toContain(TOKEN);
  }, 30_000);

  test("another user's project is 404 on every route; a project not connected answers null and 404 to push", async () => {
    const id = await project(alice);
    for (const [method, path, body] of [
      ["GET", `/api/projects/${id}/git`, undefined],
      ["PUT", `/api/projects/${id}/git`, { url: "nonsense" }],
      ["DELETE", `/api/projects/${id}/git`, undefined],
      ["POST", `/api/projects/${id}/git/push`, {}],
      ["POST", `/api/projects/${id}/git/pull`, undefined],
    ] as const) {
      expect((await bob.request(method, path, body)).status).toBe(404);
    }
    expect(await (await alice.request("GET", `/api/projects/${id}/git`)).json()).toBeNull();
    expect((await alice.request("POST", `/api/projects/${id}/git/push`, {})).status).toBe(404);
  });
});

describe("the per-instance object cache", () => {
  test("deleting a project removes its cache here; the start-up sweep removes caches of gone or disconnected projects and stale import folders", async () => {
    const cacheRoot = join(t.deps.config.dataDir, "git-cache");
    const pushed = async () => {
      const id = await project(alice, { "a.txt": "a\n" });
      expect((await connect(alice, id, { url: newRepo().url, username: USER, token: TOKEN })).status).toBe(200);
      expect((await alice.request("POST", `/api/projects/${id}/git/push`, {})).status).toBe(200);
      expect(existsSync(join(cacheRoot, `${id}.git`))).toBe(true);
      return id;
    };
    const deleted = await pushed();
    expect((await alice.request("DELETE", `/api/projects/${deleted}`)).status).toBe(200);
    expect(existsSync(join(cacheRoot, `${deleted}.git`))).toBe(false);

    // As another instance finds things at its start: a project deleted elsewhere, one still connected, an
    // import interrupted long ago and one under way.
    const kept = await pushed();
    const gone = crypto.randomUUID();
    mkdirSync(join(cacheRoot, `${gone}.git`), { recursive: true });
    const oldStaging = join(cacheRoot, `import-${crypto.randomUUID()}.git`);
    const freshStaging = join(cacheRoot, `import-${crypto.randomUUID()}.git`);
    mkdirSync(oldStaging);
    mkdirSync(freshStaging);
    const hourAgo = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(oldStaging, hourAgo, hourAgo);
    expect(await t.deps.git.sweepCaches()).toBe(2);
    expect(existsSync(join(cacheRoot, `${gone}.git`))).toBe(false);
    expect(existsSync(oldStaging)).toBe(false);
    expect(existsSync(freshStaging)).toBe(true);
    expect(existsSync(join(cacheRoot, `${kept}.git`))).toBe(true);
  }, 60_000);
});

describe("limits and clashes", () => {
  test("a git operation during an agent run or another git operation is 409; a remote that never answers is 504 after GIT_TIMEOUT_S; a repository over the limits is refused before anything is written", async () => {
    const repo = newRepo();
    const id = await project(alice, { "a.txt": "a\n" });
    await connect(alice, id, { url: repo.url, username: USER, token: TOKEN });
    // Another instance's operation holds the claim.
    await t.db.sql`update git_remotes set busy_until = now() + interval '1 minute' where project_id = ${id}`;
    const busy = await alice.request("POST", `/api/projects/${id}/git/push`, {});
    expect(busy.status).toBe(409);
    expect(await errorOf(busy)).toContain("Another git operation");
    await t.db.sql`update git_remotes set busy_until = null where project_id = ${id}`;
    // An agent run on the project: push and pull wait for it.
    const runId = crypto.randomUUID();
    await t.db.sql`insert into messages (id, project_id, role, content, status) values (${runId}, ${id}, 'assistant', '', 'running')`;
    for (const path of ["push", "pull"]) {
      const during = await alice.request("POST", `/api/projects/${id}/git/${path}`, {});
      expect(during.status).toBe(409);
      expect(await errorOf(during)).toContain("The agent is working on this project");
    }
    await t.db.sql`update messages set status = 'complete' where id = ${runId}`;
    expect((await alice.request("POST", `/api/projects/${id}/git/push`, {})).status).toBe(200);

    const small = await testApp({ env: { GIT_ALLOW_HTTP: "true", GIT_ALLOW_PRIVATE_HOSTS: "true", GIT_TIMEOUT_S: "1", MAX_FILES_PER_PROJECT: "2" } });
    const erin = small.user("erin");
    const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 30, fetch: () => new Promise<Response>(() => {}) });
    try {
      const id2 = ((await (await erin.request("POST", "/api/projects", { name: "x" })).json()) as { id: string }).id;
      const started = Date.now();
      const slow = await erin.request("PUT", `/api/projects/${id2}/git`, { url: `http://127.0.0.1:${silent.port}/app.git` });
      expect(slow.status).toBe(504);
      expect(await errorOf(slow)).toBe("The git remote did not answer within 1 s.");
      expect(Date.now() - started).toBeLessThan(5_000);

      const big = newRepo();
      server.commit(big.name, { "1.txt": "1\n", "2.txt": "2\n", "3.txt": "3\n" }, "Three files");
      const before = ((await (await erin.request("GET", "/api/projects")).json()) as unknown[]).length;
      const refused = await erin.request("POST", "/api/projects/import", { gitUrl: big.url, username: USER, token: TOKEN });
      expect(refused.status).toBe(413);
      expect(await errorOf(refused)).toContain("3 files; a project may have at most 2");
      expect(((await (await erin.request("GET", "/api/projects")).json()) as unknown[]).length).toBe(before);
    } finally {
      silent.stop(true);
      await small.deps.sandboxes.shutdown();
    }
  }, 60_000);
});

describe("outbound URL rules", () => {
  test("a loopback URL is refused without GIT_ALLOW_PRIVATE_HOSTS, plain HTTP without GIT_ALLOW_HTTP, before any request", async () => {
    const strict = await testApp({ env: { GIT_ALLOW_HTTP: "true" } });
    const carol = strict.user("carol");
    const id = ((await (await carol.request("POST", "/api/projects", { name: "x" })).json()) as { id: string }).id;
    const repo = newRepo();
    const seen = server.requests.length;
    const loop = await carol.request("PUT", `/api/projects/${id}/git`, { url: repo.url, username: USER, token: TOKEN });
    expect(loop.status).toBe(400);
    expect(await errorOf(loop)).toContain("loopback, private, link-local or metadata address");
    const imported = await carol.request("POST", "/api/projects/import", { gitUrl: repo.url });
    expect(imported.status).toBe(400);

    const noHttp = await testApp({ env: { GIT_ALLOW_PRIVATE_HOSTS: "true" } });
    const dave = noHttp.user("dave");
    const id2 = ((await (await dave.request("POST", "/api/projects", { name: "x" })).json()) as { id: string }).id;
    const http = await dave.request("PUT", `/api/projects/${id2}/git`, { url: repo.url });
    expect(http.status).toBe(400);
    expect(await errorOf(http)).toContain("Only HTTPS remotes");
    expect(server.requests.length).toBe(seen);
    await strict.deps.sandboxes.shutdown();
    await noHttp.deps.sandboxes.shutdown();
  }, 30_000);
});
