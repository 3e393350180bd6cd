/**
 * The behaviour every `SandboxProvider` must show, as one suite run against each implementation with real
 * commands in a real sandbox (`local/local-provider.test.ts`, `e2b.contract.test.ts`).
 *
 * @example
 * sandboxContract("local", () => createLocalProvider({ rootDir, idleTimeoutMs: 60_000, logger }));
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { NothingListeningError, type FileChange, type Sandbox, type SandboxProvider } from "../sandbox/types.ts";
import { terminalContract } from "./terminal-contract.ts";

/** Per-test limit: generous, because a remote provider answers over the network. */
const TEST_MS = 30_000;

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await Bun.sleep(50);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

/** The URL where the host reaches `port` of the sandbox, whichever way the provider serves previews. */
export async function previewUrl(sandbox: Sandbox, port: number): Promise<string> {
  // A local sandbox forwards only ports something listens on: a server just started may need a moment.
  let target: Awaited<ReturnType<Sandbox["previewTarget"]>> = null;
  for (let started = Date.now(); ; await Bun.sleep(50)) {
    try {
      target = await sandbox.previewTarget(port);
      break;
    } catch (error) {
      if (!(error instanceof NothingListeningError) || Date.now() - started > 10_000) throw error;
    }
  }
  if (target) return `http://${target.hostname}:${target.port}/`;
  const host = sandbox.publicPreviewHost(port);
  if (!host) throw new Error("the provider gave neither a preview target nor a public host");
  return `https://${host}/`;
}

export function sandboxContract(name: string, makeProvider: () => Promise<SandboxProvider> | SandboxProvider): void {
  describe(`${name} sandbox contract`, () => {
    let provider: SandboxProvider;
    let sandbox: Sandbox;

    beforeAll(async () => {
      provider = await makeProvider();
      sandbox = await provider.create("contract-test");
    }, 60_000);

    afterAll(async () => {
      await provider?.shutdown();
    }, 60_000);

    test(
      "run: stdout and exit code",
      async () => {
        const res = await sandbox.run("echo hello");
        expect(res).toEqual({ exitCode: 0, stdout: "hello\n", stderr: "", timedOut: false, truncated: false });
      },
      TEST_MS,
    );

    test(
      "run: stderr is kept apart from stdout",
      async () => {
        const res = await sandbox.run("echo out; echo err >&2");
        expect(res.stdout).toBe("out\n");
        expect(res.stderr).toBe("err\n");
      },
      TEST_MS,
    );

    test(
      "run: a failing command reports its exit code",
      async () => {
        expect((await sandbox.run("exit 7")).exitCode).toBe(7);
        expect((await sandbox.run("no-such-command-here")).exitCode).toBe(127);
      },
      TEST_MS,
    );

    test(
      "run: cwd is project-relative",
      async () => {
        await sandbox.files.write("sub/dir/here.txt", "in sub/dir");
        const res = await sandbox.run("pwd && cat here.txt", { cwd: "sub/dir" });
        expect(res.exitCode).toBe(0);
        expect(res.stdout).toMatch(/\/sub\/dir\nin sub\/dir$/);
      },
      TEST_MS,
    );

    test(
      "run: env is passed to the command",
      async () => {
        const res = await sandbox.run('echo "$GREETING"', { env: { GREETING: "hi there" } });
        expect(res.stdout).toBe("hi there\n");
      },
      TEST_MS,
    );

    test(
      "run: output streams to the callbacks as it comes",
      async () => {
        const out: string[] = [];
        const err: string[] = [];
        const res = await sandbox.run("for i in 1 2 3; do echo $i; echo e$i >&2; sleep 0.05; done", {
          onStdout: (c) => out.push(c),
          onStderr: (c) => err.push(c),
        });
        expect(out.join("")).toBe("1\n2\n3\n");
        expect(err.join("")).toBe("e1\ne2\ne3\n");
        expect(res.stdout).toBe("1\n2\n3\n");
      },
      TEST_MS,
    );

    test(
      "run: a command past its timeout is killed and reported",
      async () => {
        const started = Date.now();
        const res = await sandbox.run("echo started; sleep 30; echo never", { timeoutMs: 500 });
        expect(res.timedOut).toBe(true);
        expect(res.exitCode).toBeNull();
        expect(res.stdout).toBe("started\n");
        expect(Date.now() - started).toBeLessThan(10_000);
        expect((await sandbox.run("echo alive")).stdout).toBe("alive\n");
      },
      TEST_MS,
    );

    test(
      "run: aborting the signal kills the command",
      async () => {
        const controller = new AbortController();
        const started = Date.now();
        setTimeout(() => controller.abort(), 300);
        const res = await sandbox.run("sleep 30", { signal: controller.signal });
        expect(res.exitCode).toBeNull();
        expect(res.timedOut).toBe(false);
        expect(Date.now() - started).toBeLessThan(10_000);
      },
      TEST_MS,
    );

    test(
      "run: a background server keeps running and is reachable as a preview",
      async () => {
        const port = 8123;
        await sandbox.files.write(
          "server.cjs",
          `require("http").createServer((q, s) => s.end("hello from sandbox " + q.url))` + `.listen(${port}, "0.0.0.0", () => console.log("listening"));`,
        );
        const logs: string[] = [];
        const started = Date.now();
        const res = await sandbox.run("node server.cjs", { background: true, onStdout: (c) => logs.push(c) });
        expect(res.exitCode).toBeNull();
        expect(Date.now() - started).toBeLessThan(10_000);
        const url = await previewUrl(sandbox, port);
        const body = await waitFor("the preview to answer", async () => {
          const r = await fetch(`${url}ping`);
          return r.ok ? r.text() : null;
        });
        expect(body).toBe("hello from sandbox /ping");
        await waitFor("the server's log line", async () => logs.join("").includes("listening"));
        // Still up after other commands ran.
        expect((await sandbox.run("echo next")).exitCode).toBe(0);
        expect(await (await fetch(`${url}again`)).text()).toBe("hello from sandbox /again");
      },
      TEST_MS,
    );

    test(
      "files: write, read, list, rename, remove",
      async () => {
        const { files } = sandbox;
        await files.write("notes/a.txt", "alpha");
        await files.write("bin.dat", new Uint8Array([0, 1, 2, 255]));
        await files.write("node_modules/dep/index.js", "ignored");
        expect(new TextDecoder().decode((await files.read("notes/a.txt"))!)).toBe("alpha");
        expect([...(await files.read("bin.dat"))!]).toEqual([0, 1, 2, 255]);
        expect(await files.read("notes/missing.txt")).toBeNull();

        const listed = await files.list();
        expect(listed).toContainEqual({ path: "notes/a.txt", size: 5 });
        expect(listed).toContainEqual({ path: "bin.dat", size: 4 });
        expect(listed.some((f) => f.path.startsWith("node_modules/"))).toBe(false);

        expect((await sandbox.run("cat notes/a.txt")).stdout).toBe("alpha");
        await files.rename("notes/a.txt", "moved/b.txt");
        expect(await files.read("notes/a.txt")).toBeNull();
        expect(new TextDecoder().decode((await files.read("moved/b.txt"))!)).toBe("alpha");
        expect((await sandbox.run("cat moved/b.txt")).stdout).toBe("alpha");

        await files.remove("moved/b.txt");
        expect(await files.read("moved/b.txt")).toBeNull();
        expect((await files.list()).some((f) => f.path === "moved/b.txt")).toBe(false);
        expect((await sandbox.run("test -e moved/b.txt")).exitCode).toBe(1);
      },
      TEST_MS,
    );

    test(
      "files: watch reports changes made by commands, not node_modules",
      async () => {
        const changes: FileChange[] = [];
        const stop = await sandbox.files.watch((c) => changes.push(c));
        try {
          await sandbox.run("mkdir -p gen node_modules/pkg && echo made > gen/file.txt && echo x > node_modules/pkg/index.js");
          await waitFor("the write event", async () => changes.some((c) => c.type === "write" && c.path === "gen/file.txt"));
          await sandbox.run("rm gen/file.txt");
          await waitFor("the remove event", async () => changes.some((c) => c.type === "remove" && c.path === "gen/file.txt"));
          expect(changes.some((c) => c.path.startsWith("node_modules"))).toBe(false);
        } finally {
          stop();
        }
      },
      TEST_MS,
    );

    terminalContract(() => sandbox);

    test("kill: ends the sandbox; connect then answers null", async () => {
      const other = await provider.create("contract-test-kill");
      expect((await provider.connect(other.id))?.id).toBe(other.id);
      await other.run("sleep 300", { background: true });
      await other.kill();
      expect(await other.isAlive()).toBe(false);
      expect(await provider.connect(other.id)).toBeNull();
      expect(await sandbox.isAlive()).toBe(true);
    }, 60_000);
  });
}
