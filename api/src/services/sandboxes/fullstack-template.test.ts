/**
 * The fullstack template for real: its dependencies installed with its own install command (npm, from the
 * registry), its server started as the workflow starts it, against a scratch database on the PostgreSQL of
 * TEST_DATABASE_URL: the migration applied once, a row written and read back through the API, the client
 * served by Vite on the same port, then built and served by `npm start`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { loadTemplate, type Template } from "./templates";

const url = process.env.TEST_DATABASE_URL;
const INSTALL_MS = 240_000;

type Server = { port: number; output: () => string; stop: () => Promise<void> };

/** Starts `argv` in `cwd` with PORT and DATABASE_URL, and waits until it answers (or fails with its output). */
async function startServer(cwd: string, argv: string[], env: Record<string, string>): Promise<Server> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  let output = "";
  const child = Bun.spawn(argv, { cwd, env: { ...process.env, ...env, PORT: String(port) }, stdout: "pipe", stderr: "pipe" });
  for (const stream of [child.stdout, child.stderr]) {
    void (async () => {
      const reader = stream.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) output += new TextDecoder().decode(chunk.value);
    })();
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${output}`);
    if (/Started: http/.test(output)) break;
    if (Date.now() > deadline) throw new Error(`the server did not start: ${output}`);
    await Bun.sleep(100);
  }
  return {
    port,
    output: () => output,
    stop: async () => {
      child.kill();
      await child.exited;
    },
  };
}

if (!url) {
  test.skip("fullstack template (needs TEST_DATABASE_URL: a real PostgreSQL for its server)", () => {});
} else {
  describe("the fullstack template", () => {
    let template: Template;
    let dir: string;
    let databaseUrl: string;
    const name = `fullstack_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });

    beforeAll(async () => {
      template = await loadTemplate("fullstack");
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "fullstack-template-"));
      for (const file of template.files) {
        fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
        fs.writeFileSync(path.join(dir, file.path), file.content);
      }
      await admin.unsafe(`create database ${name}`);
      const target = new URL(url);
      target.pathname = `/${name}`;
      databaseUrl = target.toString();
      const install = Bun.spawn(["sh", "-c", template.install], { cwd: dir, stdout: "pipe", stderr: "pipe" });
      if ((await install.exited) !== 0) throw new Error(`install failed: ${await new Response(install.stderr).text()}`);
    }, INSTALL_MS);
    afterAll(async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test("declares one port, a start and a build script, and one migration", () => {
      const pkg = JSON.parse(new TextDecoder().decode(template.files.find((f) => f.path === "package.json")!.content)) as { scripts: Record<string, string> };
      expect(pkg.scripts.start).toContain("server/index.js");
      expect(pkg.scripts.build).toBe("vite build");
      expect(template.files.map((f) => f.path).filter((p) => p.startsWith("db/migrations/"))).toEqual(["db/migrations/001_init.sql"]);
      expect(template.port).toBe(3000);
    });

    test("in development: migrates once, round-trips a row through the API, serves the client on the same port", async () => {
      const argv = template.workflowCommand.split(" ");
      let server = await startServer(dir, argv, { DATABASE_URL: databaseUrl });
      try {
        expect(server.output()).toContain("Applied migrations: 001_init.sql");
        const base = `http://127.0.0.1:${server.port}`;
        expect(await (await fetch(`${base}/api/items`)).json()).toEqual([]);
        const created = await fetch(`${base}/api/items`, { method: "POST", body: JSON.stringify({ title: "Buy milk" }) });
        expect(created.status).toBe(201);
        const item = (await created.json()) as { id: number };
        const patched = await fetch(`${base}/api/items/${item.id}`, { method: "PATCH", body: JSON.stringify({ done: true }) });
        expect(await patched.json()).toEqual({ id: item.id, title: "Buy milk", done: true });
        expect((await fetch(`${base}/api/items`, { method: "POST", body: "{}" })).status).toBe(400);

        // The client through Vite, on the API's port, under a preview host name.
        const page = await fetch(`${base}/`, { headers: { host: `3000-abc.preview.example.test` } });
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root"></div>');
        const app = await fetch(`${base}/src/App.tsx`, { headers: { host: `3000-abc.preview.example.test` } });
        expect(app.status).toBe(200);
        const appCode = await app.text();
        expect(appCode).toContain("/api/items");
        // The dev-only source tags (vite-source-tags.ts) for the preview's Select to edit.
        expect(appCode).toMatch(/"data-src": "src\/App\.tsx:\d+"/);
      } finally {
        await server.stop();
      }

      // A second start applies nothing again; the row is still there.
      server = await startServer(dir, argv, { DATABASE_URL: databaseUrl });
      try {
        expect(server.output()).not.toContain("Applied migrations");
        expect(await (await fetch(`http://127.0.0.1:${server.port}/api/items`)).json()).toEqual([{ id: 1, title: "Buy milk", done: true }]);
      } finally {
        await server.stop();
      }
      const db = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      expect((await db`select name from _migrations`).map((r) => r.name)).toEqual(["001_init.sql"]);
      await db.end();
    }, 60_000);

    test("without DATABASE_URL the server stops and says what is missing", async () => {
      const child = Bun.spawn(["node", "server/index.js"], { cwd: dir, env: { ...process.env, DATABASE_URL: "" }, stdout: "pipe", stderr: "pipe" });
      expect(await child.exited).not.toBe(0);
      expect(await new Response(child.stderr).text()).toContain("DATABASE_URL is not set");
    });

    test("in production: `npm run build`, then `npm start` serves the built client and the API", async () => {
      const build = Bun.spawn(["npm", "run", "build"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
      expect(await build.exited).toBe(0);
      const server = await startServer(dir, ["npm", "start"], { DATABASE_URL: databaseUrl });
      try {
        const base = `http://127.0.0.1:${server.port}`;
        const page = await (await fetch(`${base}/some/client/route`)).text();
        expect(page).toContain('<div id="root"></div>');
        expect(page).not.toContain("/src/main.tsx");
        const script = page.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
        const built = await fetch(base + script);
        expect(built.headers.get("content-type")).toBe("text/javascript");
        // A build carries no source tags.
        expect(await built.text()).not.toContain("data-src");
        expect(await (await fetch(`${base}/api/items`)).json()).toEqual([{ id: 1, title: "Buy milk", done: true }]);
      } finally {
        await server.stop();
      }
    }, 120_000);
  });
}
