/**
 * Isolation of the local sandbox, shown with real commands in real sandboxes: what a sandbox must not
 * read, reach, see or harm on this machine, and that it leaves nothing behind. The only outside host
 * contacted is the npm registry.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { silentLogger } from "../../lib/logger.ts";
import type { SandboxProvider } from "../types.ts";
import { createLocalProvider } from "./local-provider.ts";
import type { LocalSandbox } from "./local-sandbox.ts";
import { pidAlive } from "./exec.ts";
import { pidsOfUid } from "./procs.ts";
import { previewUrl, waitFor } from "../../test/sandbox-contract.ts";
import { localSuiteGate, tempSandboxRoot } from "../../test/local-sandbox-support.ts";

const LIMITS = { memoryMb: 384, pids: 128, cpuPercent: 50 };

/** Tries a TCP connection from inside; "OPEN" only if it was accepted. */
async function probe(s: LocalSandbox, host: string, port: number): Promise<string> {
  const res = await s.run(`timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${port} && echo OPEN' 2>&1; echo "rc=$?"`, {
    timeoutMs: 15_000,
  });
  return res.stdout;
}

function hostAddress(): string {
  for (const addrs of Object.values(os.networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  throw new Error("this machine has no non-loopback IPv4 address");
}

function cgroupFile(s: LocalSandbox, controller: string, file: string): string | null {
  const dir = s.host.cgroups.find((d) => d.includes(`/${controller}/`));
  if (!dir || !fs.existsSync(path.join(dir, file))) return null;
  return fs.readFileSync(path.join(dir, file), "utf8").trim();
}

if (await localSuiteGate("isolation")) {
  describe("local sandbox isolation", () => {
    const rootDir = tempSandboxRoot("isolation");
    const secretDir = fs.mkdtempSync(path.join(os.tmpdir(), "host-secret-"));
    const secretFile = path.join(secretDir, "secret.txt");
    let provider: SandboxProvider;
    let a: LocalSandbox;
    let b: LocalSandbox;

    beforeAll(async () => {
      fs.chmodSync(secretDir, 0o755);
      fs.writeFileSync(secretFile, "host secret", { mode: 0o644 }); // world-readable on the host
      provider = createLocalProvider({ rootDir, idleTimeoutMs: 120_000, limits: LIMITS, logger: silentLogger });
      [a, b] = (await Promise.all([provider.create("a"), provider.create("b")])) as [LocalSandbox, LocalSandbox];
      await b.files.write("b-secret.txt", "only for b");
    }, 60_000);

    afterAll(async () => {
      await provider?.shutdown();
      fs.rmSync(rootDir, { recursive: true, force: true });
      fs.rmSync(secretDir, { recursive: true, force: true });
    }, 30_000);

    test("cannot read host paths outside its folder", async () => {
      for (const target of [secretFile, "/root", "/etc/shadow", path.join(b.host.projectDir, "b-secret.txt"), rootDir, "/work"]) {
        const res = await a.run(`ls -la ${target} 2>&1; cat ${target} 2>&1`);
        expect(res.stdout).not.toContain("host secret");
        expect(res.stdout).not.toContain("only for b");
        expect(res.stdout).toContain("No such file or directory");
      }
      const root = await a.run("ls -A / /home/user /etc");
      expect(root.stdout).toContain("/home/user:\n.cache\nproject\n");
      expect(root.stdout).not.toContain("shadow");
      expect((await a.run("cat /etc/passwd")).stdout).not.toContain("postgres");
    }, 30_000);

    test("the system is read-only; only the project folder and /tmp are writable", async () => {
      const res = await a.run("touch /usr/x /etc/x /home/user/x 2>&1; touch /tmp/ok ~/ok && echo wrote");
      expect(res.stdout.match(/Read-only file system/g)?.length).toBe(3);
      expect(res.stdout).toContain("wrote");
    }, 30_000);

    test("host file operations never follow links the sandbox planted", async () => {
      await a.run(`ln -s ${secretDir} dirlink && ln -s ${secretFile} filelink`);
      expect(await a.files.read("filelink")).toBeNull();
      expect(await a.files.read("dirlink/secret.txt")).toBeNull();
      await expect(a.files.write("dirlink/planted.txt", "x")).rejects.toThrow();
      expect(fs.existsSync(path.join(secretDir, "planted.txt"))).toBe(false);
      expect((await a.files.list()).map((f) => f.path)).not.toContain("dirlink/secret.txt");
      await a.files.write("filelink", "replaced the link, not the target");
      await a.files.remove("dirlink");
      expect(fs.readFileSync(secretFile, "utf8")).toBe("host secret");
      expect(fs.lstatSync(path.join(a.host.projectDir, "filelink")).isFile()).toBe(true);
    }, 30_000);

    describe("network", () => {
      const servers: ReturnType<typeof Bun.serve>[] = [];
      let loopbackPort = 0;
      let anyPort = 0;

      beforeAll(() => {
        const loopback = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("host loopback") });
        const any = Bun.serve({ hostname: "0.0.0.0", port: 0, fetch: () => new Response("host any") });
        servers.push(loopback, any);
        loopbackPort = loopback.port!;
        anyPort = any.port!;
      });
      afterAll(() => servers.forEach((s) => s.stop(true)));

      test("the probe works: the sandbox reaches its own servers", async () => {
        await a.files.write("own.cjs", `require("net").createServer((c) => c.end()).listen(7001, "127.0.0.1");`);
        await a.run("node own.cjs", { background: true });
        const out = await (async () => {
          for (let i = 0; i < 50; i++) {
            const o = await probe(a, "127.0.0.1", 7001);
            if (o.includes("OPEN")) return o;
            await Bun.sleep(100);
          }
          return "never";
        })();
        expect(out).toContain("OPEN");
      }, 30_000);

      test("cannot connect to host services on loopback (PostgreSQL, the API)", async () => {
        // Controls: from the host these answer (or, for 5432, at least the probe is meaningful).
        expect(await (await fetch(`http://127.0.0.1:${loopbackPort}/`)).text()).toBe("host loopback");
        for (const [host, port] of [
          ["127.0.0.1", loopbackPort],
          ["10.0.2.2", loopbackPort],
          ["10.0.2.2", 5432],
        ] as const) {
          const out = await probe(a, host, port);
          expect(out).not.toContain("OPEN");
          expect(out).toMatch(/rc=[1-9]/);
        }
        // 127.0.0.1:5432 inside is the sandbox's own forwarder to its project's database (issue 21), not the
        // host's PostgreSQL: with no database served for this sandbox, a PostgreSQL SSLRequest gets no answer.
        const ssl = await a.run(
          `timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/5432; printf "\\x00\\x00\\x00\\x08\\x04\\xd2\\x16\\x2f" >&3; head -c1 <&3 | od -An -c'; echo "rc=$?"`,
          { timeoutMs: 15_000 },
        );
        expect(ssl.stdout).not.toMatch(/\b[NS]\b/);
      }, 30_000);

      test("cannot reach a host service bound to 0.0.0.0 through the host's own address", async () => {
        const ip = hostAddress();
        expect(await (await fetch(`http://${ip}:${anyPort}/`)).text()).toBe("host any");
        const out = await probe(a, ip, anyPort);
        expect(out).not.toContain("OPEN");
        expect(out).toContain("refused");
      }, 30_000);

      test("cannot reach another sandbox's preview or servers", async () => {
        await b.files.write("srv.cjs", `require("http").createServer((q, r) => r.end("b")).listen(7002, "0.0.0.0");`);
        await b.run("node srv.cjs", { background: true });
        // Waits until the server listens: only listening ports get a host forward.
        const target = { port: Number(new URL(await previewUrl(b, 7002)).port) };
        const body = await (async () => {
          for (let i = 0; i < 50; i++) {
            try {
              return await (await fetch(`http://127.0.0.1:${target.port}/`)).text();
            } catch {
              await Bun.sleep(100);
            }
          }
          return "never";
        })();
        expect(body).toBe("b"); // the host reaches it …
        const out = await probe(a, "127.0.0.1", target.port); // … sandbox a does not
        expect(out).not.toContain("OPEN");
        expect(await probe(a, "10.0.2.100", 7002)).not.toContain("OPEN"); // its own address, not b's server
      }, 30_000);

      test("the npm registry is reachable: npm view", async () => {
        const res = await a.run("npm view is-number version", { timeoutMs: 60_000 });
        expect(res.exitCode).toBe(0);
        expect(res.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      }, 70_000);
    });

    test("cannot see other sandboxes' processes, nor its own other commands", async () => {
      await b.run("exec -a marker-b-7731 sleep 300", { background: true });
      await a.run("exec -a marker-a-7731 sleep 300", { background: true });
      await Bun.sleep(200); // let both exec, so a miss below means hidden, not not-yet-started
      const res = await a.run("ps -eo pid,args; ls /proc | grep -c '^[0-9]'");
      expect(res.stdout).not.toContain("marker-b-7731");
      expect(res.stdout).not.toContain("marker-a-7731");
      expect(res.stdout).not.toContain("supervisor");
      expect(Number(res.stdout.trim().split("\n").at(-1))).toBeLessThanOrEqual(4);
      // Nor signal them by their host pid (a background run returns once started, so wait for its exec).
      const hostPid = await waitFor("b's marker process", async () =>
        pidsOfUid(b.host.uid).find((pid) => {
          try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("marker-b-7731");
          } catch {
            return false;
          }
        }),
      );
      await a.run(`kill -9 ${hostPid}`);
      expect(pidAlive(hostPid!)).toBe(true);
    }, 30_000);

    test("runs as its own non-root uid with no capabilities", async () => {
      const res = await a.run("id -u; grep -E '^(CapEff|CapPrm|CapAmb|NoNewPrivs)' /proc/self/status");
      const [uid, ...caps] = res.stdout.trim().split("\n");
      expect(Number(uid)).toBe(a.host.uid);
      expect(a.host.uid).not.toBe(b.host.uid);
      expect(a.host.uid).toBeGreaterThan(0);
      expect(caps).toEqual(["CapPrm:\t0000000000000000", "CapEff:\t0000000000000000", "CapAmb:\t0000000000000000", "NoNewPrivs:\t1"]);
    }, 30_000);

    test("a command past its timeout is killed, double-forked children included", async () => {
      const started = Date.now();
      const res = await a.run("(setsid env -i bash -c 'exec -a escapee-5521 sleep 300' &); sleep 30", { timeoutMs: 800 });
      expect(res.timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      await Bun.sleep(300);
      const escaped = pidsOfUid(a.host.uid).filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("escapee-5521");
        } catch {
          return false;
        }
      });
      expect(escaped).toEqual([]);
    }, 30_000);

    test("a fork bomb is contained: pids capped, host responsive, sandbox recovers", async () => {
      let maxLag = 0;
      let last = performance.now();
      const ticker = setInterval(() => {
        const now = performance.now();
        maxLag = Math.max(maxLag, now - last - 20);
        last = now;
      }, 20);
      let maxPids = 0;
      let bombStderr = "";
      const sampler = setInterval(() => {
        maxPids = Math.max(maxPids, Number(cgroupFile(a, "pids", "pids.current") ?? 0));
      }, 50);
      try {
        const bomb = a.run("bomb() { bomb | bomb & }; bomb; sleep 30", { timeoutMs: 4_000 });
        await Bun.sleep(1_500);
        const spawnStarted = performance.now();
        expect(Bun.spawnSync(["true"]).success).toBe(true); // the host can still start processes
        const spawnMs = performance.now() - spawnStarted;
        const res = await bomb;
        bombStderr = res.stderr;
        expect(res.timedOut).toBe(true);
        expect(spawnMs).toBeLessThan(2_000);
        expect(maxLag).toBeLessThan(2_000);
      } finally {
        clearInterval(ticker);
        clearInterval(sampler);
      }
      if (cgroupFile(a, "pids", "pids.max") !== null) {
        // It hit a cap: the sandbox's cgroup, or first the command's own (below it, so the supervisor keeps room).
        const cgroupHits = Number(/max (\d+)/.exec(cgroupFile(a, "pids", "pids.events")!)?.[1]);
        expect(cgroupHits > 0 || bombStderr.includes("process limit")).toBe(true);
        expect(maxPids).toBeLessThanOrEqual(LIMITS.pids);
        const peak = cgroupFile(a, "pids", "pids.peak"); // newer kernels only
        if (peak !== null) expect(Number(peak)).toBeLessThanOrEqual(LIMITS.pids);
      }
      expect((await a.run("echo recovered")).stdout).toBe("recovered\n");
    }, 30_000);

    test("a memory hog is OOM-killed inside the sandbox only", async () => {
      const res = await a.run(`node -e 'const a = []; for (;;) a.push(Buffer.alloc(32 << 20, 1))'`, { timeoutMs: 20_000 });
      expect(res.timedOut).toBe(false);
      expect(res.exitCode).toBe(137); // SIGKILL from the OOM killer
      const limit = cgroupFile(a, "memory", "memory.limit_in_bytes");
      if (limit !== null) {
        expect(Number(limit)).toBe(LIMITS.memoryMb * 1024 * 1024);
        expect(Number(cgroupFile(a, "memory", "memory.max_usage_in_bytes"))).toBeLessThanOrEqual(Number(limit));
        expect(Number(/oom_kill (\d+)/.exec(cgroupFile(a, "memory", "memory.oom_control")!)?.[1])).toBeGreaterThan(0);
      }
      expect((await a.run("echo survived")).stdout).toBe("survived\n");
      expect(await b.isAlive()).toBe(true);
    }, 30_000);

    test("npm install works; the files belong to the sandbox uid and the cache stays outside", async () => {
      const res = await a.run("npm install --no-save is-number", { timeoutMs: 60_000 });
      expect(res.exitCode).toBe(0);
      const pkg = path.join(a.host.projectDir, "node_modules", "is-number", "package.json");
      expect(fs.statSync(pkg).uid).toBe(a.host.uid);
      expect(fs.statSync(path.join(a.host.projectDir, "node_modules")).uid).toBe(a.host.uid);
      expect(fs.existsSync(path.join(a.host.projectDir, ".npm"))).toBe(false);
      expect(fs.existsSync(path.join(path.dirname(a.host.projectDir), "cache", "npm"))).toBe(true);
      const run = await a.run(`node -e 'console.log(require("is-number")(5))'`);
      expect(run.stdout).toBe("true\n");
    }, 70_000);

    test("after kill nothing of the sandbox remains", async () => {
      const { uid, slirpPid, netns, cgroups, baseDir } = a.host;
      await a.run("sleep 300", { background: true });
      expect(pidsOfUid(uid).length).toBeGreaterThan(0);
      await a.kill();
      expect(pidsOfUid(uid)).toEqual([]);
      expect(pidAlive(slirpPid)).toBe(false);
      expect(fs.existsSync(`/run/netns/${netns}`)).toBe(false);
      for (const dir of cgroups) expect(fs.existsSync(dir)).toBe(false);
      expect(fs.existsSync(baseDir)).toBe(false);
      expect(await provider.connect(a.id)).toBeNull();
      expect(await b.isAlive()).toBe(true);
    }, 30_000);
  });
}
