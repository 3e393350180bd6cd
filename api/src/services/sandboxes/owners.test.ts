/**
 * Two real app instances on one PostgreSQL, with local sandboxes (issue 24, item 2): a project's sandbox
 * started through instance A is reached through instance B (the preview, the terminal, the process list),
 * forwarded to A, with one sandbox and one `app` process; an internal request with a forged or missing
 * INSTANCE_SECRET answers 401 and is logged; once A is stopped, the next preview request through B makes the
 * sandbox again on B and sends the browser to its new host.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import postgres from "postgres";
import { localSuiteGate } from "../../test/local-sandbox-support";
import { processUser, scratchDatabase, startAppProcess, type AppProcess } from "../../test/app-process";
import { connectPty } from "../../test/pty-client";
import { S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from "../../test/s3-server";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!onPostgres) console.warn("owners.test.ts skipped: set TEST_DATABASE_URL (two instances need one real PostgreSQL).");

/** Unique to this run: counts the `app` processes it started, on this machine, whichever instance runs them. */
const MARKER = `owner-app-${crypto.randomUUID().slice(0, 8)}`;
const APP = `exec python3 -c "import http.server  # ${MARKER}
http.server.HTTPServer(('0.0.0.0',5173),http.server.SimpleHTTPRequestHandler).serve_forever()"`;
const PAGE = "served by the one sandbox";

const appProcesses = async () => {
  // The python program itself (its sandbox's wrappers name the command too).
  const ps = Bun.spawn(["pgrep", "-fc", `^python3 -c import http.server  # ${MARKER}`], { stdout: "pipe" });
  return Number((await new Response(ps.stdout).text()).trim() || "0");
};

if (onPostgres && (await localSuiteGate("sandbox owner forwarding", { sameOnEveryDatabase: true }))) {
  describe("a local sandbox from either of two instances", () => {
    let db: Awaited<ReturnType<typeof scratchDatabase>>;
    let s3: S3TestServer;
    let sql: postgres.Sql;
    let a: AppProcess;
    let b: AppProcess;
    const user = processUser("owner");
    let projectId: string;

    const api = (app: AppProcess, path: string, init: RequestInit = {}) =>
      fetch(`${app.url}${path}`, { ...init, headers: { ...user.auth, "content-type": "application/json", ...(init.headers as Record<string, string>) } });
    const sandboxRow = async () =>
      (
        await sql<{ sandboxId: string; instanceUrl: string | null }[]>`
        select sandbox_id as "sandboxId", sandbox_instance_url as "instanceUrl" from projects where id = ${projectId}`
      )[0]!;

    /** Enters the preview host through `app` with a ticket, then asks for `/` until the app answers. */
    async function previewThrough(app: AppProcess, enterUrl: string): Promise<{ host: string; cookie: string; body: string }> {
      const enter = new URL(enterUrl);
      const host = enter.hostname;
      const entered = await fetch(`${app.url}${enter.pathname}${enter.search}`, { headers: { host }, redirect: "manual" });
      expect(entered.status).toBe(302);
      const cookie = entered.headers.get("set-cookie")!.split(";")[0]!;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const res = await fetch(`${app.url}/index.html`, { headers: { host, cookie } });
        const body = await res.text();
        if (res.status === 200) return { host, cookie, body };
        if (Date.now() > deadline) throw new Error(`the preview never answered: ${res.status} ${body.slice(0, 200)}`);
        await Bun.sleep(250);
      }
    }

    beforeAll(async () => {
      db = await scratchDatabase();
      sql = postgres(db!.url, { max: 1, onnotice: () => {} });
      // One PostgreSQL and one bucket, as in production: a sandbox made again elsewhere is filled from the same storage.
      s3 = await startS3Server();
      const env = {
        DATABASE_URL: db!.url,
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: "true",
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
        SANDBOX_WARM_TEMPLATES: "none",
        PREVIEW_DOMAIN: "localhost",
      };
      [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
      projectId = ((await (await api(a, "/api/projects", { method: "POST", body: JSON.stringify({ name: "Owned" }) })).json()) as { id: string }).id;
      expect((await api(a, `/api/files/${projectId}`, { method: "POST", body: JSON.stringify({ path: "index.html", content: PAGE }) })).status).toBe(201);
      await sql`update projects set workflow_command = ${APP} where id = ${projectId}`;
      // Through A: A starts the sandbox and owns it.
      expect((await api(a, `/api/sandbox/${projectId}/run-workflow`, { method: "POST" })).status).toBe(200);
    }, 120_000);

    afterAll(async () => {
      for (const app of [a, b]) app?.kill("SIGTERM");
      await Promise.all([a?.exited, b?.exited]);
      await sql?.end();
      await db?.drop();
      await s3?.stop();
      for (const app of [a, b]) if (app) rmSync(app.dataDir, { recursive: true, force: true });
    }, 60_000);

    test("the owner is recorded with its internal address", async () => {
      const row = await sandboxRow();
      expect(row.sandboxId).toBeTruthy();
      expect(row.instanceUrl).toBe(`http://127.0.0.1:${a.port}`);
    });

    test("the preview, the process list and the terminal through B reach A's sandbox: one sandbox, one app", async () => {
      const { sandboxId } = await sandboxRow();
      const ticket = (await (await api(b, `/api/sandbox/${projectId}/preview-ticket`, { method: "POST" })).json()) as { enterUrl: string };
      const preview = await previewThrough(b, ticket.enterUrl);
      expect(preview.host.startsWith(`5173-${sandboxId}.`)).toBe(true);
      expect(preview.body).toContain(PAGE);

      const listed = (await (await api(b, `/api/sandbox/${projectId}/processes`)).json()) as { name: string; status: string }[];
      // One `app` in A's table ("starting" until its port is seen, though it already answers).
      const apps = listed.filter((p) => p.name === "app");
      expect(apps).toHaveLength(1);
      expect(["starting", "running"]).toContain(apps[0]!.status);
      expect((await (await api(b, `/api/sandbox/${projectId}/validate`)).json()) as unknown).toEqual({ isValid: true });

      const term = await connectPty(`ws://127.0.0.1:${b.port}`, projectId, user.token);
      await term.waitFor(/\$ $/, 30_000);
      term.type("cat index.html; echo; echo sum=$((6*7))\r");
      await term.waitFor(new RegExp(`${PAGE}\\r\\nsum=42\\r\\n`));
      term.ws.close();

      // Nothing was made again on B: the same sandbox, still A's, and one `app` on this machine.
      expect(await sandboxRow()).toEqual({ sandboxId, instanceUrl: `http://127.0.0.1:${a.port}` });
      expect(await appProcesses()).toBe(1);
    }, 120_000);

    test("an internal request with a forged or missing INSTANCE_SECRET answers 401 and is logged", async () => {
      const path = `/api/sandbox/${projectId}/processes`;
      const forged = await api(b, path, { headers: { "x-appbuilder-instance": "intruder", "x-instance-secret": "not-the-secret-at-all" } });
      expect(forged.status).toBe(401);
      expect(((await forged.json()) as { error: string }).error).toContain("INSTANCE_SECRET");
      const missing = await api(b, path, { headers: { "x-appbuilder-instance": "intruder" } });
      expect(missing.status).toBe(401);
      // Not even a preview host or an unauthenticated path is served to a forged internal request.
      expect((await fetch(`${b.url}/api/health`, { headers: { "x-instance-secret": "guess-guess-guess-guess" } })).status).toBe(401);
      const logged = await b.waitForLine((l) => l.includes("internal request refused") && l.includes('"secret":"missing"'));
      expect(JSON.parse(logged).path).toBe(path);
      expect(b.lines.some((l) => l.includes("internal request refused") && l.includes('"secret":"wrong"'))).toBe(true);
      expect(b.lines.some((l) => l.includes("not-the-secret-at-all"))).toBe(false);
    });

    test("with A stopped, the next preview request through B makes the sandbox again on B and sends the browser there", async () => {
      const before = await sandboxRow();
      const ticket = (await (await api(b, `/api/sandbox/${projectId}/preview-ticket`, { method: "POST" })).json()) as { enterUrl: string };
      const { host, cookie } = await previewThrough(b, ticket.enterUrl);
      a.kill("SIGTERM");
      expect(await a.exited).toBe(0);
      expect(await appProcesses()).toBe(0);

      const res = await fetch(`${b.url}/index.html`, { headers: { host, cookie }, redirect: "manual" });
      expect(res.status).toBe(302);
      const after = await sandboxRow();
      expect(after.sandboxId).not.toBe(before.sandboxId);
      expect(after.instanceUrl).toBe(`http://127.0.0.1:${b.port}`);
      const location = new URL(res.headers.get("location")!);
      expect(location.hostname).toBe(`5173-${after.sandboxId}.localhost`);
      expect(location.searchParams.get("next")).toBe("/index.html");
      // Following it: the new sandbox on B serves the stored page, from its own `app`.
      const again = await previewThrough(b, location.toString());
      expect(again.body).toContain(PAGE);
      expect(await appProcesses()).toBe(1);
      // The terminal through B now opens in B's own sandbox: nothing is forwarded to the stopped A.
      const term = await connectPty(`ws://127.0.0.1:${b.port}`, projectId, user.token);
      await term.waitFor(/\$ $/, 30_000);
      term.type("cat index.html; echo\r");
      await term.waitFor(new RegExp(`${PAGE}\\r\\n`));
      term.ws.close();
      expect((await sandboxRow()).sandboxId).toBe(after.sandboxId);
    }, 120_000);
  });
}
