/**
 * The local provider against the shared contract, plus what only it promises: id shape, the output cap,
 * idle stop, per-sandbox preview ports and the refusal when it cannot isolate.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { silentLogger } from "../../lib/logger.ts";
import { previewUrl, sandboxContract, waitFor } from "../../test/sandbox-contract.ts";
import { SandboxUnavailableError, type FileChange } from "../types.ts";
import { createLocalProvider } from "./local-provider.ts";
import type { LocalSandbox } from "./local-sandbox.ts";
import { pidsOfUid } from "./procs.ts";
import { localSuiteGate, tempSandboxRoot } from "../../test/local-sandbox-support.ts";

const roots: string[] = [];
function provider(options: { idleTimeoutMs?: number; rootDir?: string } = {}) {
  const rootDir = options.rootDir ?? tempSandboxRoot("local");
  roots.push(rootDir);
  return createLocalProvider({ rootDir, idleTimeoutMs: options.idleTimeoutMs ?? 60_000, logger: silentLogger });
}

afterAll(() => {
  for (const dir of roots) fs.rmSync(dir, { recursive: true, force: true });
});

if (await localSuiteGate("local provider")) {
  sandboxContract("local", () => provider());

  describe("local provider", () => {
    const p = provider();
    afterAll(() => p.shutdown(), 30_000);

    test("ids are unguessable DNS labels", async () => {
      const a = await p.create("ids");
      const b = await p.create("ids");
      for (const s of [a, b]) expect(s.id).toMatch(/^[a-z2-7]{26}$/);
      expect(a.id).not.toBe(b.id);
      expect(await p.connect("nosuchsandboxidxxxxxxxxxxx")).toBeNull();
      await Promise.all([a.kill(), b.kill()]);
      await expect(a.run("echo hi")).rejects.toThrow("not running");
    }, 30_000);

    test("output beyond 1 MiB per stream is dropped and flagged", async () => {
      const s = await p.create("cap");
      const res = await s.run("head -c 3000000 /dev/zero | tr '\\0' a; echo done >&2");
      expect(res.exitCode).toBe(0);
      expect(res.truncated).toBe(true);
      expect(res.stdout.length).toBe(1024 * 1024);
      expect(res.stderr).toBe("done\n");
      await s.kill();
    }, 30_000);

    test("files written through the API belong to the sandbox uid, which can edit them", async () => {
      const s = (await p.create("owner")) as LocalSandbox;
      await s.files.write("new/dir/file.txt", "x");
      for (const rel of ["new", "new/dir", "new/dir/file.txt"]) {
        expect(fs.statSync(path.join(s.host.projectDir, rel)).uid).toBe(s.host.uid);
      }
      expect((await s.run("echo y >> new/dir/file.txt && rm -r new && echo ok")).stdout).toBe("ok\n");
      await s.kill();
    }, 30_000);

    test("watch: the API's own writes are not echoed; a folder moved by a command reports each file", async () => {
      const s = await p.create("watch");
      const changes: FileChange[] = [];
      const stop = await s.files.watch((c) => changes.push(c));
      await s.files.write("src/api.txt", "from the api");
      await s.files.rename("src/api.txt", "src/renamed.txt");
      await s.run("mkdir -p lib/deep && echo 1 > lib/a.txt && echo 2 > lib/deep/b.txt");
      await waitFor("lib's files", async () => changes.filter((c) => c.path.startsWith("lib/")).length >= 2);
      await s.run("mv lib moved && echo 3 >> src/renamed.txt");
      const want: FileChange[] = [
        { type: "remove", path: "lib/a.txt" },
        { type: "remove", path: "lib/deep/b.txt" },
        { type: "write", path: "moved/a.txt" },
        { type: "write", path: "moved/deep/b.txt" },
        { type: "write", path: "src/renamed.txt" },
      ];
      await waitFor("the move's events", async () => want.every((w) => changes.some((c) => c.type === w.type && c.path === w.path)));
      expect(changes.some((c) => c.path === "src/api.txt")).toBe(false);
      expect(changes.filter((c) => c.path === "src/renamed.txt")).toEqual([{ type: "write", path: "src/renamed.txt" }]);
      stop();
      await s.kill();
    }, 30_000);

    test("two sandboxes serve the same port, each its own preview", async () => {
      const [a, b] = await Promise.all([p.create("a"), p.create("b")]);
      for (const [s, name] of [
        [a, "A"],
        [b, "B"],
      ] as const) {
        await s.files.write("srv.cjs", `require("http").createServer((q, r) => r.end("${name}")).listen(5173, "0.0.0.0");`);
        await s.run("node srv.cjs", { background: true });
      }
      const urls = await Promise.all([previewUrl(a, 5173), previewUrl(b, 5173)]);
      expect(urls[0]).not.toBe(urls[1]);
      expect(await previewUrl(a, 5173)).toBe(urls[0]!); // one forward per port
      for (const [url, name] of [
        [urls[0]!, "A"],
        [urls[1]!, "B"],
      ]) {
        const body = await waitFor(`preview ${name}`, async () => (await fetch(url!)).text());
        expect(body).toBe(name!);
      }
      await Promise.all([a.kill(), b.kill()]);
      await expect(fetch(urls[0]!)).rejects.toThrow();
    }, 30_000);

    test("an idle sandbox is stopped and then reads as expired", async () => {
      const idle = provider({ idleTimeoutMs: 400 });
      const s = (await idle.create("idle")) as LocalSandbox;
      await s.run("sleep 0.6"); // a running command is not idle
      expect(await s.isAlive()).toBe(true);
      await waitFor("the idle stop", async () => (await idle.connect(s.id)) === null, 5_000);
      await waitFor("its processes to end", async () => pidsOfUid(s.host.uid).length === 0, 5_000);
      expect(fs.existsSync(s.host.baseDir)).toBe(false);
      await idle.shutdown();
    }, 30_000);

    test("without cgroups, the process count falls back to RLIMIT_NPROC", async () => {
      const rootDir = tempSandboxRoot("rlimit");
      roots.push(rootDir);
      const plain = createLocalProvider({
        rootDir,
        idleTimeoutMs: 60_000,
        logger: silentLogger,
        cgroups: false,
        spares: 0,
        limits: { pids: 64 },
      });
      const s = (await plain.create("rlimit")) as LocalSandbox;
      expect(s.host.cgroups).toEqual([]);
      // A command sees its own cap, 32 below the sandbox's 64, which keeps room for the supervisor.
      expect((await s.run("ulimit -u")).stdout).toBe("32\n");
      expect(fs.readFileSync(`/proc/${s.host.supervisorPid}/limits`, "utf8")).toMatch(/Max processes\s+64\s+64/);
      expect((await s.run("echo works")).stdout).toBe("works\n");
      await plain.shutdown();
    }, 30_000);

    test("the template cache folder is bound read-only: readable and copyable, never writable", async () => {
      const base = tempSandboxRoot("tcache");
      roots.push(base);
      fs.chmodSync(base, 0o711);
      const cacheDir = path.join(base, "template-cache");
      const withCache = createLocalProvider({
        rootDir: path.join(base, "sandboxes"),
        templateCacheDir: cacheDir,
        idleTimeoutMs: 60_000,
        logger: silentLogger,
        spares: 0,
      });
      const s = (await withCache.create("tcache")) as LocalSandbox;
      // The provider made the folder (root's, traverse-only); entries the host adds later show up at once.
      expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o711);
      expect(withCache.templateCache?.sandboxDir).toBe("/opt/template-cache");
      expect(withCache.templateCache?.hostProjectDir(s)).toBe(s.host.projectDir);
      fs.mkdirSync(path.join(cacheDir, "t-1/node_modules/dep"), { recursive: true, mode: 0o755 });
      fs.writeFileSync(path.join(cacheDir, "t-1/node_modules/dep/index.js"), "module.exports = 1;\n", { mode: 0o644 });
      const copied = await s.run("cp -a /opt/template-cache/t-1/node_modules . && stat -c '%u %h' node_modules/dep/index.js");
      expect(copied.stdout).toBe(`${s.host.uid} 1\n`);
      for (const command of [
        "echo 2 > /opt/template-cache/t-1/node_modules/dep/index.js",
        "rm -rf /opt/template-cache/t-1",
        "touch /opt/template-cache/t-1/x",
      ]) {
        const res = await s.run(command);
        expect(res.exitCode).not.toBe(0);
        expect(res.stderr).toMatch(/Read-only file system|Permission denied/);
      }
      expect(fs.readFileSync(path.join(cacheDir, "t-1/node_modules/dep/index.js"), "utf8")).toBe("module.exports = 1;\n");
      expect(fs.readdirSync(path.join(cacheDir, "t-1"))).toEqual(["node_modules"]);
      await s.kill();
      expect(withCache.templateCache?.hostProjectDir(s)).toBeNull();
      await withCache.shutdown();
      // Without the option there is no cache, and nothing is bound.
      expect(p.templateCache).toBeNull();
    }, 30_000);

    test("refuses without root, saying what is missing, and runs nothing", async () => {
      const dir = tempSandboxRoot("nonroot");
      roots.push(dir);
      fs.chmodSync(dir, 0o755);
      // The checkout may sit in a folder only root can read (a fresh clone under mktemp), so the non-root
      // process gets its own copy of the code it runs (the provider imports only sandbox/ and lib/).
      const srcCopy = path.join(dir, "src");
      for (const part of ["sandbox", "lib"]) fs.cpSync(path.join(import.meta.dir, "..", "..", part), path.join(srcCopy, part), { recursive: true });
      execSync(`chmod -R a+rX ${JSON.stringify(srcCopy)}`);
      const script = path.join(dir, "try.ts");
      fs.writeFileSync(
        script,
        `import { createLocalProvider, checkLocalSandboxSupport } from ${JSON.stringify(path.join(srcCopy, "sandbox", "local", "index.ts"))};
        const logger = { debug() {}, info() {}, warn() {}, error() {} };
        console.log(JSON.stringify(await checkLocalSandboxSupport()));
        const p = createLocalProvider({ rootDir: ${JSON.stringify(path.join(dir, "root"))}, idleTimeoutMs: 1000, logger });
        await p.create("x").catch((e) => console.log(e.constructor.name + ": " + e.message));`,
        { mode: 0o644 },
      );
      const proc = Bun.spawnSync(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, script], {
        env: { PATH: "/usr/bin:/bin", HOME: dir, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" },
        cwd: dir,
      });
      const out = proc.stdout.toString();
      expect(out).toContain('{"ok":false,"missing":["root: ');
      expect(out).toContain("SandboxUnavailableError: Local sandboxes are unavailable on this machine; nothing was run.");
      expect(fs.existsSync(path.join(dir, "root"))).toBe(false);
    }, 30_000);

    test("refuses with SandboxUnavailableError when sandboxes cannot reach their folder", async () => {
      const hidden = tempSandboxRoot("hidden"); // mkdtemp makes it 0700: other uids cannot pass
      const refusing = provider({ rootDir: path.join(hidden, "sandboxes") });
      roots.push(hidden);
      const err = await refusing.create("x").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxUnavailableError);
      expect(String((err as Error).message)).toContain("chmod o+x");
    }, 30_000);
  });
}
