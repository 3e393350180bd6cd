/**
 * The template dependency cache with real local sandboxes and real npm installs (the registry must be
 * reachable): filled once by its own sandbox, copied (not linked) into each project as the project's user,
 * read-only inside every sandbox, used by recreate, and a react template served through the preview proxy.
 * Evidence is never timing: the dependency source applyTemplate reports, the population count and id, and
 * `cp -a`'s preserved modification times.
 */
import { grantedAccess } from "../../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { createMemoryBus } from "../../events/memory-bus";
import { serveHttp } from "../../http-server";
import { silentLogger } from "../../lib/logger";
import { createPreviewProxy } from "../../realtime/preview-proxy";
import { openPreviewAccess } from "../../test/preview-access";
import { createWsHub } from "../../realtime/ws-hub";
import { testApp, type TestUser } from "../../test/test-app";
import type { LocalSandbox } from "../../sandbox/local/local-sandbox";
import { localSuiteGate } from "../../test/local-sandbox-support";
import type { TemplateCache } from "./template-cache";
import { loadTemplate, type Template } from "./templates";
import type { Sandbox, SandboxProvider } from "../../sandbox/types";

const INSTALL_MS = 180_000;

if (await localSuiteGate("template cache", { sameOnEveryDatabase: true })) {
  let t: Awaited<ReturnType<typeof testApp>>;
  let cache: TemplateCache;
  let react: Template;
  let vite: Template;
  let cacheDir: string;

  beforeAll(async () => {
    t = await testApp({ env: { SANDBOX_IDLE_MINUTES: "10" } });
    cache = t.deps.sandboxes.templateCache!;
    react = await loadTemplate("react");
    vite = await loadTemplate("vite");
    cacheDir = path.join(t.deps.config.dataDir, "template-cache");
  }, 60_000);
  afterAll(async () => {
    await t?.deps.sandboxes.shutdown();
  }, 30_000);

  const newProject = async (user: TestUser, name: string): Promise<string> =>
    ((await (await user.request("POST", "/api/projects", { name })).json()) as { id: string }).id;
  const shell = async (user: TestUser, projectId: string, command: string) =>
    (await (await user.request("POST", `/api/sandbox/${projectId}/shell`, { command })).json()) as { stdout: string; stderr: string; error: string | null };
  const hostInfo = (sandbox: Sandbox) => (sandbox as unknown as LocalSandbox).host;
  const readyJson = (template: Template) =>
    JSON.parse(fs.readFileSync(path.join(cacheDir, cache.key(template)!, "ready.json"), "utf8")) as { populationId: string; key: string };
  const mtime = (file: string) => fs.statSync(file, { bigint: true }).mtimeNs;

  describe("template dependency cache (local provider)", () => {
    test(
      "is filled once: concurrent fills share one population, by its own sandbox; the entry is root's",
      async () => {
        expect(cache).toBeTruthy();
        expect(cache.isReady(react)).toBe(false);
        const first = cache.populate(react);
        const second = cache.populate(react);
        expect(second).toBe(first);
        await Promise.all([first, second]);
        expect(cache.populations).toBe(1);
        expect(cache.isReady(react)).toBe(true);
        const { populationId } = readyJson(react);
        await cache.populate(react); // ready: nothing more is done
        expect(cache.populations).toBe(1);
        expect(readyJson(react).populationId).toBe(populationId);

        const entry = path.join(cacheDir, cache.key(react)!);
        expect(fs.readdirSync(cacheDir).filter((n) => n.startsWith("."))).toEqual([]); // no lock, no half-made entry
        const pkg = fs.statSync(path.join(entry, "node_modules/react/package.json"));
        expect([pkg.uid, pkg.gid]).toEqual([0, 0]);
        expect(pkg.mode & 0o022).toBe(0);
        expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o711);
        expect(fs.existsSync(path.join(entry, "node_modules/vite/bin/vite.js"))).toBe(true);
      },
      INSTALL_MS,
    );

    test(
      "an apply copies it: the project's files are the sandbox user's own copies; the cache is read-only inside",
      async () => {
        const alice = t.user("alice");
        const projectId = await newProject(alice, "Cached");
        const populationId = readyJson(react).populationId;
        const applied = await t.deps.sandboxes.applyTemplate(grantedAccess(alice.uid, projectId), "react");
        expect(applied.dependencies).toBe("template-cache");
        expect(applied.filesWritten).toBe(react.files.length);
        expect(applied.workflowCommand).toBe(react.workflowCommand);
        expect(react.workflowCommand).toStartWith("node node_modules/vite/bin/vite.js "); // no npm run / npx in front
        expect(cache.populations).toBe(1);
        expect(readyJson(react).populationId).toBe(populationId);

        const sandbox = await t.deps.sandboxes.ensure(grantedAccess(alice.uid, projectId));
        const { uid, projectDir } = hostInfo(sandbox);
        const entry = path.join(cacheDir, cache.key(react)!, "node_modules");
        // Inside: every file under node_modules is the sandbox user's, with one link (a copy, not a hard link).
        expect((await shell(alice, projectId, "id -u")).stdout).toBe(`${uid}\n`);
        expect((await shell(alice, projectId, 'find node_modules ! -user "$(id -u)" | head -3')).stdout).toBe("");
        expect((await shell(alice, projectId, "find node_modules -type f -links +1 | head -3")).stdout).toBe("");
        // On the host: other inodes than the cache's, owned by the sandbox uid; cp -a kept the cache's times.
        const copied = path.join(projectDir, "node_modules/react/package.json");
        const original = path.join(entry, "react/package.json");
        expect(fs.statSync(copied).uid).toBe(uid);
        expect(fs.statSync(copied).ino).not.toBe(fs.statSync(original).ino);
        expect(mtime(copied)).toBe(mtime(original));
        expect(fs.existsSync(path.join(projectDir, "package-lock.json"))).toBe(true);

        // The project's copy is writable by its user; the cache is not, by any path.
        const key = cache.key(react)!;
        const before = fs.readFileSync(path.join(entry, "react/index.js"), "utf8");
        expect((await shell(alice, projectId, "echo changed > node_modules/react/index.js && cat node_modules/react/index.js")).stdout).toBe("changed\n");
        const attempts = [
          `echo poisoned > /opt/template-cache/${key}/node_modules/react/index.js`,
          `rm -rf /opt/template-cache/${key}/node_modules/react`,
          `touch /opt/template-cache/${key}/new-file`,
          `mkdir /opt/template-cache/new-dir`,
          `mv /opt/template-cache/${key} /opt/template-cache/moved`,
        ];
        for (const command of attempts) {
          const result = await shell(alice, projectId, command);
          expect(result.error).toMatch(/^Command exited with code [1-9]/);
          expect(result.stderr).toMatch(/Read-only file system|Permission denied/);
        }
        expect(fs.readFileSync(path.join(entry, "react/index.js"), "utf8")).toBe(before);
        expect(fs.readdirSync(cacheDir).sort()).toEqual([key]);
        expect(fs.readdirSync(path.join(cacheDir, key)).sort()).toEqual(["node_modules", "package-lock.json", "ready.json"]);
      },
      INSTALL_MS,
    );

    test(
      "the react template is served through the preview proxy: 200 with the app's HTML and its component",
      async () => {
        const bob = t.user("bob");
        const projectId = await newProject(bob, "Served");
        const applied = await t.deps.sandboxes.applyTemplate(grantedAccess(bob.uid, projectId), "react");
        expect(applied.dependencies).toBe("template-cache");
        const sandbox = await t.deps.sandboxes.ensure(grantedAccess(bob.uid, projectId));
        expect(applied.url).toBe(`http://5173-${sandbox.id}.app.localhost:3000`);

        const provider = { kind: "local", connect: async (id: string) => (id === sandbox.id ? sandbox : null) } as unknown as SandboxProvider;
        const access = openPreviewAccess();
        const preview = createPreviewProxy({ provider, domain: "localhost", logger: silentLogger, ...access.proxy });
        const hub = createWsHub({
          sql: null as never,
          store: null as never,
          logger: silentLogger,
          events: createMemoryBus(),
          verifyToken: async () => {
            throw new Error("unused");
          },
        });
        const front = serveHttp({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("the app"), hub, preview });
        try {
          const host = `5173-${sandbox.id}.localhost:${front.port}`;
          const cookie = await access.cookie(host);
          const get = (p: string) => fetch(`http://127.0.0.1:${front.port}${p}`, { headers: { host, cookie } });
          // The apply answered once the dev server accepted connections: the first request is served.
          const res = await get("/");
          expect(res.status).toBe(200);
          const html = await res.text();
          expect(html).toContain('<div id="root"></div>');
          expect(html).toContain("<title>React App</title>");
          expect(html).toContain("/@vite/client");
          const app = await get("/src/App.tsx");
          expect(app.status).toBe(200);
          expect(await app.text()).toContain("Hello from React");
        } finally {
          front.stop(true);
        }
      },
      INSTALL_MS,
    );

    test(
      "a cold cache: the apply installs with the template's command and fills the cache for the next one",
      async () => {
        const carol = t.user("carol");
        expect(cache.isReady(vite)).toBe(false);
        // A lock left by a process that died while populating does not stop this one.
        const lock = path.join(cacheDir, `.${cache.key(vite)}.lock`);
        fs.writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 1, at: Date.now() }));
        const cold = await t.deps.sandboxes.applyTemplate(grantedAccess(carol.uid, await newProject(carol, "Cold")), "vite");
        expect(cold.dependencies).toBe("install");
        // The apply started the cache's population in the background (it may have finished already).
        const deadline = Date.now() + INSTALL_MS / 2;
        while (!cache.isReady(vite) && Date.now() < deadline) await Bun.sleep(100);
        expect(cache.isReady(vite)).toBe(true);
        expect(fs.existsSync(lock)).toBe(false);
        expect(cache.populations).toBe(2);
        const warm = await t.deps.sandboxes.applyTemplate(grantedAccess(carol.uid, await newProject(carol, "Warm")), "vite");
        expect(warm.dependencies).toBe("template-cache");
        expect(cache.populations).toBe(2);
        // The node template installs nothing and never touches the cache.
        const node = await t.deps.sandboxes.applyTemplate(grantedAccess(carol.uid, await newProject(carol, "Node")), "node");
        expect(node.dependencies).toBe("none");
        expect(cache.key(await loadTemplate("node"))).toBeNull();
      },
      INSTALL_MS,
    );

    test(
      "recreate copies from the cache when package.json is the template's, before starting the workflow",
      async () => {
        const dave = t.user("dave");
        const projectId = await newProject(dave, "Again");
        await t.deps.sandboxes.applyTemplate(grantedAccess(dave.uid, projectId), "react");
        const res = await dave.request("POST", `/api/sandbox/${projectId}/recreate`);
        expect(res.status).toBe(200);
        const body = (await res.json()) as { workflowCommand: string };
        expect(body.workflowCommand).toContain("vite.js");
        const { projectDir } = hostInfo(await t.deps.sandboxes.ensure(grantedAccess(dave.uid, projectId)));
        const original = path.join(cacheDir, cache.key(react)!, "node_modules/react/package.json");
        // A fresh npm install would write new times; the copy keeps the cache's.
        expect(mtime(path.join(projectDir, "node_modules/react/package.json"))).toBe(mtime(original));
      },
      INSTALL_MS,
    );

    test(
      "POST /api/sandbox/{projectId}/template: applies, refuses unknown templates (400) and other users' projects (404)",
      async () => {
        const erin = t.user("erin");
        const projectId = await newProject(erin, "Route");
        const unknown = await erin.request("POST", `/api/sandbox/${projectId}/template`, { template: "angular" });
        expect(unknown.status).toBe(400);
        expect(((await unknown.json()) as { error: string }).error).toContain("template must be one of react, vite, node, fullstack");
        expect((await t.user("mallory").request("POST", `/api/sandbox/${projectId}/template`, { template: "node" })).status).toBe(404);
        const res = await erin.request("POST", `/api/sandbox/${projectId}/template`, { template: "node" });
        expect(res.status).toBe(200);
        const body = (await res.json()) as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual(["filesWritten", "url", "workflowCommand"]);
        expect(body.workflowCommand).toBe((await loadTemplate("node")).workflowCommand);
        expect(body.url).toMatch(/^http:\/\/3000-[a-z0-9]+\.app\.localhost:3000$/);
      },
      INSTALL_MS,
    );
  });
}
