/**
 * scripts/backup.sh and scripts/restore.sh on the embedded default: the real app makes a project with files,
 * a version and a published deployment over its API; backing up refuses while it runs; stopped, it is backed
 * up, restored into a fresh DATA_DIR, and the app started on that folder finds every project, file, version
 * and deployment (and serves the site). A restore into the non-empty folder refuses without --force.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { processUser, startAppProcess, type AppProcess } from "../api/src/test/app-process";
import { localSuiteGate } from "../api/src/test/local-sandbox-support";

const ROOT = resolve(import.meta.dir, "..");
const work = mkdtempSync(join(tmpdir(), "backup-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function script(name: string, args: string[], dataDir: string) {
  const proc = Bun.spawnSync(["bash", join(ROOT, "scripts", name), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? work, DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

const user = processUser("backup");
const call = async (app: AppProcess, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...user.auth, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const stop = async (app: AppProcess) => {
  app.kill("SIGTERM");
  await app.exited;
};

/** Everything the backup must bring back, as the API shows it. */
async function snapshot(app: AppProcess, projectId: string) {
  const projects = ((await call(app, "GET", "/api/projects")) as { id: string; name: string }[]).map((p) => ({ id: p.id, name: p.name }));
  const files = ((await call(app, "GET", `/api/files/${projectId}`)) as { id: string; path: string }[]).map((f) => f.path).sort();
  const contents: Record<string, string> = {};
  for (const f of (await call(app, "GET", `/api/files/${projectId}`)) as { id: string; path: string }[]) {
    contents[f.path] = ((await call(app, "GET", `/api/files/${projectId}/${f.id}`)) as { content: string }).content;
  }
  // Compared whole: ids, labels, manifests' counts and times must all come back as they were.
  const versions: unknown = await call(app, "GET", `/api/projects/${projectId}/versions`);
  const deployments = ((await call(app, "GET", `/api/projects/${projectId}/deployments`)) as { id: string; status: string }[]).map((d) => ({
    id: d.id,
    status: d.status,
  }));
  return { projects, files, contents, versions, deployments };
}

// Publishing builds in a local sandbox, so the suite needs them (root and bubblewrap).
if (await localSuiteGate("backup and restore", { sameOnEveryDatabase: true })) {
  describe("backup and restore on the embedded default", () => {
    test("every project, file, version and deployment comes back in a fresh data folder; a non-empty one refuses without --force", async () => {
      const env = { SANDBOX_WARM_TEMPLATES: "none", RATE_LIMIT_PUBLISH_PER_MINUTE: "0" };
      const dataDir = join(work, "data");
      mkdirSync(dataDir);
      let app = await startAppProcess(env, { dataDir, startMs: 150_000 });
      let before: Awaited<ReturnType<typeof snapshot>>;
      let projectId: string;
      try {
        projectId = ((await call(app, "POST", "/api/projects", { name: "Kept safe" })) as { id: string }).id;
        await call(app, "POST", "/api/projects", { name: "Second" });
        await call(app, "POST", `/api/files/${projectId}`, { path: "index.html", content: "<h1>restored</h1>" });
        await call(app, "POST", `/api/files/${projectId}`, { path: "notes/readme.md", content: "# notes\n" });
        await call(app, "POST", `/api/projects/${projectId}/versions`, { label: "Before the backup" });
        await call(app, "POST", `/api/projects/${projectId}/publish`, { slug: `kept-${process.pid}` });
        const deadline = Date.now() + 60_000;
        for (;;) {
          const deployments = (await call(app, "GET", `/api/projects/${projectId}/deployments`)) as { status: string }[];
          if (deployments.some((d) => d.status === "live")) break;
          if (deployments.some((d) => d.status === "failed") || Date.now() > deadline)
            throw new Error(`publish did not go live: ${JSON.stringify(deployments)}`);
          await Bun.sleep(250);
        }
        before = await snapshot(app, projectId);
        expect(before.projects.length).toBe(2);
        expect(before.deployments).toEqual([{ id: expect.any(String), status: "live" }]);
        expect(before.files).toEqual(["index.html", "notes/readme.md"]);
        expect(JSON.stringify(before.versions)).toContain("Before the backup");

        // While the app runs, the embedded database cannot be copied consistently: refused, saying so.
        const running = script("backup.sh", [join(work, "early")], dataDir);
        expect(running.code).toBe(1);
        expect(running.err).toContain("stop it first");
      } finally {
        await stop(app);
      }

      const backup = join(work, "backup");
      const made = script("backup.sh", [backup], dataDir);
      expect({ code: made.code, err: made.err }).toEqual({ code: 0, err: "" });

      const fresh = join(work, "fresh");
      const restored = script("restore.sh", [backup], fresh);
      expect({ code: restored.code, err: restored.err }).toEqual({ code: 0, err: "" });
      // Into a folder that now holds data: refused without --force, done with it.
      const again = script("restore.sh", [backup], fresh);
      expect(again.code).toBe(1);
      expect(again.err).toContain("is not empty; refusing to overwrite it");
      expect(script("restore.sh", ["--force", backup], fresh).code).toBe(0);

      app = await startAppProcess(env, { dataDir: fresh, startMs: 150_000 });
      try {
        const after = await snapshot(app, projectId!);
        expect(after).toEqual(before!);
        expect(after.contents["index.html"]).toBe("<h1>restored</h1>");
        const site = await fetch(`${app.url}/`, { headers: { host: `kept-${process.pid}.sites.localhost` } });
        expect(await site.text()).toContain("<h1>restored</h1>");
      } finally {
        await stop(app);
      }
    }, 400_000);
  });
}
