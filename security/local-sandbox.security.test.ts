/**
 * Attacks a hostile user replays from inside their own local sandbox (or with its preview link), and the
 * safe outcome for each. Real sandboxes (bubblewrap, as root); skipped with a message where impossible.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import { silentLogger } from "../api/src/lib/logger";
import { appServer, type AppServer } from "../api/src/test/app-server";
import { testApp } from "../api/src/test/test-app";
import { createLocalProvider } from "../api/src/sandbox/local/local-provider";
import type { LocalSandbox } from "../api/src/sandbox/local/local-sandbox";
import { localSuiteGate, tempSandboxRoot } from "../api/src/test/local-sandbox-support";
import { MAX_FILE_CONTENT_BYTES } from "@shared/schemas/file";
import { FileTooLargeError, MAX_SANDBOX_READ_BYTES, type SandboxProvider } from "../api/src/sandbox/types";

const LIMITS = { memoryMb: 512, pids: 128, cpuPercent: 100 };
const rssMb = () => process.memoryUsage().rss / 1048576;

/** Listening TCP sockets held by `pid` in its own network namespace (for slirp4netns: the host's). */
function listeningSockets(pid: number): number {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: "utf8" }) ?? "");
    if (m) inodes.add(m[1]!);
  }
  let n = 0;
  for (const file of ["tcp", "tcp6"]) {
    for (const line of fs.readFileSync(`/proc/${pid}/net/${file}`, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === "0A" && inodes.has(cols[9]!)) n++;
    }
  }
  return n;
}

/** The real app in front of `provider`'s sandboxes, previews included. Its sandboxes are the caller's to shut down. */
// "open" preview access: these sandboxes are made straight from the provider, so no project names them.
const frontOf = async (provider: SandboxProvider) => appServer(await testApp({ provider }), { provider, previewAccess: "open" });

if (await localSuiteGate("local sandbox security")) {
  describe("local sandbox: attacks from inside", () => {
    const rootDir = tempSandboxRoot("security");
    let provider: SandboxProvider;
    let s: LocalSandbox;
    let front: AppServer;
    beforeAll(async () => {
      provider = createLocalProvider({ rootDir, idleTimeoutMs: 120_000, limits: LIMITS, logger: silentLogger, spares: 0 });
      s = (await provider.create("attacker")) as LocalSandbox;
      front = await frontOf(provider);
    }, 60_000);
    afterAll(async () => {
      front?.stop();
      await provider?.shutdown();
      fs.rmSync(rootDir, { recursive: true, force: true });
    }, 30_000);

    test("a sparse 700 MB file (truncate -s 700M) is refused by size before it is read: API memory stays bounded", async () => {
      expect((await s.run("truncate -s 700M big.bin && truncate -s 4M ok.bin && du -k big.bin")).exitCode).toBe(0);
      Bun.gc(true);
      const before = rssMb();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 5);
      try {
        const reads = await Promise.allSettled(Array.from({ length: 4 }, () => s.files.read("big.bin")));
        for (const r of reads) {
          expect(r.status).toBe("rejected");
          expect((r as PromiseRejectedResult).reason).toBeInstanceOf(FileTooLargeError);
          expect((r as PromiseRejectedResult).reason.size).toBe(700 * 1048576);
        }
        expect((await s.files.read("ok.bin"))?.length).toBe(4 * 1048576); // files under the limit still read
        expect(MAX_SANDBOX_READ_BYTES).toBe(MAX_FILE_CONTENT_BYTES); // the read limit is the project's file limit
      } finally {
        clearInterval(sampler);
      }
      // Four 700 MB reads would have added 2.8 GB; the 4 MB file and noise stay far below 100 MB.
      expect(peak - before).toBeLessThan(100);
    }, 30_000);

    test("100 new preview ports do not add 100 host listening sockets", async () => {
      // Twenty real servers inside, plus eighty port numbers nothing listens on.
      await s.run(
        `node -e "for (let p = 3000; p < 3020; p++) require('http').createServer((q, r) => r.end('port ' + p)).listen(p, '0.0.0.0'); setInterval(() => {}, 1e6)"`,
        { background: true },
      );
      for (let i = 0; i < 100 && !(await s.run("grep -c ' 0A ' /proc/net/tcp")).stdout.trim().startsWith("2"); i++) await Bun.sleep(50);
      const before = listeningSockets(s.host.slirpPid);
      // Each port asked for through the app's preview proxy over HTTP, as anyone with the link can.
      const answers: string[] = [];
      for (let port = 3000; port < 3100; port++) {
        const res = await front.preview(s.id, port);
        const text = await res.text();
        answers.push(res.status === 200 ? text : `${res.status} ${/Nothing is answering on port \d+/.exec(text)?.[0] ?? text.slice(0, 200)}`);
      }
      expect(answers).toEqual(Array.from({ length: 100 }, (_, i) => (i < 20 ? `port ${3000 + i}` : `502 Nothing is answering on port ${3000 + i}`)));
      const added = listeningSockets(s.host.slirpPid) - before;
      expect(added).toBeGreaterThan(0); // forwards were made for the real servers…
      expect(added).toBeLessThanOrEqual(8); // …but at most the cap, the oldest removed
      // A reaped port is forwarded again on its next request, and answers.
      const again = await front.preview(s.id, 3000);
      expect([again.status, await again.text()]).toEqual([200, "port 3000"]);
      expect(listeningSockets(s.host.slirpPid) - before).toBeLessThanOrEqual(8);
    }, 60_000);

    test("no nested user namespace: `unshare -r id` fails (and uid 0 is never reached)", async () => {
      for (const cmd of ["unshare -r id", "unshare --user --map-root-user id", "unshare --user --pid --mount --fork --map-root-user id"]) {
        const res = await s.run(cmd);
        expect({ cmd, exitCode: res.exitCode, uid0: res.stdout.includes("uid=0") }).toEqual({ cmd, exitCode: 1, uid0: false });
        expect(res.stderr).toMatch(/unshare failed: (Operation not permitted|No space left on device)/);
      }
      // The exact flags the supervisor uses pass the filter, and then meet the namespace limit inside.
      expect((await s.run("cat /proc/sys/user/max_user_namespaces")).stdout.trim()).toBe("0");
      // The commands run with no capability in any set.
      expect((await s.run("grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status | awk '{print $2}' | sort -u")).stdout.trim()).toBe("0000000000000000");
    });

    test("seccomp refuses ptrace, keyctl, bpf, perf_event_open, mount and the i386 ABI; ordinary work still runs", async () => {
      // syscall(nr, …) through python's ctypes: -1 with errno EPERM (1) means refused by the filter.
      const probe = (nr: number, ...args: number[]) =>
        `python3 -c 'import ctypes,sys; libc=ctypes.CDLL(None, use_errno=True); r=libc.syscall(${[nr, ...args].join(",")}); print(r, ctypes.get_errno())'`;
      const x64 = process.arch === "x64";
      const cases: [string, number][] = x64
        ? [
            ["ptrace(PTRACE_ATTACH, 1)", 101],
            ["keyctl", 250],
            ["bpf", 321],
            ["perf_event_open", 298],
            ["userfaultfd", 323],
            ["setns", 308],
            ["io_uring_setup", 425],
          ]
        : [
            ["ptrace(PTRACE_ATTACH, 1)", 117],
            ["keyctl", 219],
            ["bpf", 280],
            ["perf_event_open", 241],
            ["userfaultfd", 282],
            ["setns", 268],
            ["io_uring_setup", 425],
          ];
      for (const [name, nr] of cases) {
        const out = (await s.run(probe(nr, 16, 1, 0, 0))).stdout.trim();
        expect({ name, out }).toEqual({ name, out: "-1 1" });
      }
      const mount = await s.run("mount -t tmpfs none /tmp 2>&1; echo rc=$?");
      expect(mount.stdout).toMatch(/rc=(32|1)/);
      if (x64) {
        // An i386 system call (int 0x80: getpid) would slip past a table of 64-bit numbers: the process is killed.
        const int80 = `python3 -c 'import mmap,ctypes; m=mmap.mmap(-1,4096,prot=7); m.write(bytes([0xb8,0x14,0,0,0,0xcd,0x80,0xc3])); f=ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m))); print(f())'`;
        const i386 = await s.run(`${int80}; echo rc=$?`);
        // A kernel built without the i386 ABI (IA32 emulation) faults on int 0x80 before any filter runs:
        // SIGSEGV outside the sandbox too. Then the sandbox must fault the same way; otherwise seccomp kills it.
        const onHost = Bun.spawnSync(["bash", "-c", int80], { stdout: "ignore", stderr: "ignore" });
        const hostHasI386 = onHost.exitCode === 0;
        expect(i386.stdout).toContain(hostHasI386 ? "rc=159" : "rc=139"); // 128 + SIGSYS, or 128 + SIGSEGV
      }
      const ok = await s.run('node -e \'require("child_process").execSync("true"); console.log("node ok")\' && bash -c \'echo $((6*7))\'');
      expect(ok.stdout).toBe("node ok\n42\n");
    }, 30_000);

    test("hitting the process limit answers a readable error, not a silent null, and the sandbox lives on", async () => {
      const res = await s.run("for i in $(seq 200); do sleep 3 & done; wait", { timeoutMs: 20_000 });
      expect(res.stderr).toContain(`process limit (${LIMITS.pids} processes`);
      expect(res.exitCode).not.toBeNull();
      // A fork bomb, too, is its command's problem only: the sandbox still answers afterwards.
      const bomb = await s.run("bomb() { bomb | bomb & }; bomb; sleep 30", { timeoutMs: 4_000 });
      expect(bomb.timedOut).toBe(true);
      expect(bomb.stderr).toContain("process limit");
      expect(s.gone).toBe(false);
      expect((await s.run("echo alive")).stdout).toBe("alive\n");
    }, 40_000);
  });

  describe("local sandbox: sync back to storage", () => {
    test("a sparse 700 MB file made in a project's sandbox is not pulled into the API during sync; RSS stays bounded", async () => {
      const t = await testApp({ env: { SANDBOX_WARM_TEMPLATES: "none", SANDBOX_DISK_MB: "1024" } });
      const alice = t.user("alice");
      const project = (await (await alice.request("POST", "/api/projects", { name: "Sparse" })).json()) as { id: string };
      try {
        const shell = (command: string) => alice.request("POST", `/api/sandbox/${project.id}/shell`, { command });
        expect((await shell("true")).status).toBe(200); // the sandbox is up and synced
        Bun.gc(true);
        const before = rssMb();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 5);
        try {
          const made = await (await shell("for i in 1 2 3; do truncate -s 700M big$i.bin; done; echo small > small.txt")).json();
          expect(made.error).toBeNull();
          // The small file syncs (the watcher and the sync work); the big ones never do.
          let paths: string[] = [];
          for (let i = 0; i < 60 && !paths.includes("small.txt"); i++) {
            await Bun.sleep(100);
            paths = ((await (await alice.request("GET", `/api/files/${project.id}`)).json()) as { path: string }[]).map((f) => f.path);
          }
          await Bun.sleep(500);
          paths = ((await (await alice.request("GET", `/api/files/${project.id}`)).json()) as { path: string }[]).map((f) => f.path);
          expect(paths).toContain("small.txt");
          expect(paths.filter((p) => p.startsWith("big"))).toEqual([]);
        } finally {
          clearInterval(sampler);
        }
        expect(peak - before).toBeLessThan(150); // reading them would have cost 2.1 GB
      } finally {
        await t.deps.sandboxes.shutdown();
      }
    }, 60_000);
  });

  describe("local sandbox: disk", () => {
    const rootDir = tempSandboxRoot("disk");
    let free = 1e9;
    let provider: SandboxProvider;
    let s: LocalSandbox;
    let front: AppServer;
    beforeAll(async () => {
      fs.chmodSync(rootDir, 0o755);
      provider = createLocalProvider({
        rootDir,
        idleTimeoutMs: 120_000,
        limits: LIMITS,
        logger: silentLogger,
        spares: 0,
        diskMb: 256,
        diskReserveMb: 100,
        freeSpaceMb: () => free,
      });
      s = (await provider.create("filler")) as LocalSandbox;
      front = await frontOf(provider);
    }, 60_000);
    afterAll(async () => {
      front?.stop();
      await provider?.shutdown();
      fs.rmSync(rootDir, { recursive: true, force: true });
    }, 30_000);

    test("fallocate -l 300M fails inside once over the quota (project and cache alike); the host disk and the API are untouched", async () => {
      const hostFreeBefore = fs.statfsSync(rootDir).bavail * fs.statfsSync(rootDir).bsize;
      // Another user of the same app, signed in, listing her projects over HTTP all the while.
      const alice = front.t.user("alice");
      const { id } = (await (await alice.request("POST", "/api/projects", { name: "Alice's" })).json()) as { id: string };
      const listProjects = async () => {
        const res = await fetch(`${front.origin}/api/projects`, { headers: { authorization: `Bearer ${alice.token}` } });
        return { status: res.status, ids: ((await res.json()) as { id: string }[]).map((p) => p.id) };
      };
      const answers: { status: number; ids: string[] }[] = [];
      const pings: Promise<void>[] = [];
      let slowest = 0;
      const ping = () => {
        const t = performance.now();
        pings.push(
          listProjects()
            .catch((error) => ({ status: 0, ids: [String(error)] }))
            .then((answer) => {
              answers.push(answer);
              slowest = Math.max(slowest, performance.now() - t);
            }),
        );
      };
      const pinger = setInterval(ping, 50);
      try {
        // One request sent with each write, however fast it fails, and more every 50 ms.
        ping();
        const project = await s.run("fallocate -l 300M big.bin; echo rc=$?");
        ping();
        const cache = await s.run("rm -f big.bin; fallocate -l 300M /home/user/.cache/x; echo rc=$?");
        expect(project.stdout).toBe("rc=1\n");
        expect(project.stderr).toContain("No space left on device");
        expect(cache.stdout).toBe("rc=1\n");
      } finally {
        clearInterval(pinger);
        await Promise.all(pings);
      }
      // The app answered every request while the writes failed, quickly, and still does after.
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.filter((a) => a.status !== 200 || a.ids.join() !== id)).toEqual([]);
      expect(slowest).toBeLessThan(1_000);
      expect(await listProjects()).toEqual({ status: 200, ids: [id] });
      const hostFreeAfter = fs.statfsSync(rootDir).bavail * fs.statfsSync(rootDir).bsize;
      expect(hostFreeBefore - hostFreeAfter).toBeLessThan(260 * 1048576); // never more than the volume
      // Room again after deleting: the quota is a limit, not a trap.
      expect((await s.run("rm -f /home/user/.cache/x && fallocate -l 100M ok.bin && echo fits")).stdout).toBe("fits\n");
    }, 30_000);

    test("host disk nearly full: no new sandbox starts, and running ones turn read-only until space returns", async () => {
      free = 50; // below the 100 MB reserve
      await expect(provider.create("refused")).rejects.toThrow(/disk is nearly full/);
      await Bun.sleep(6_000); // the guard looks every 5 s
      const write = await s.run("echo x > new.txt; echo rc=$?");
      expect(write.stdout).toBe("rc=1\n");
      expect(write.stderr).toContain("Read-only file system");
      free = 1e9;
      await Bun.sleep(6_000);
      expect((await s.run("echo x > new.txt && echo written")).stdout).toBe("written\n");
    }, 30_000);
  });

  describe("local sandbox: lifetime", () => {
    const rootDir = tempSandboxRoot("lifetime");
    afterAll(() => fs.rmSync(rootDir, { recursive: true, force: true }));

    test("preview requests (anyone with the link) do not keep a sandbox alive; it stops when idle", async () => {
      const provider = createLocalProvider({ rootDir, idleTimeoutMs: 1_500, limits: LIMITS, logger: silentLogger, spares: 0 });
      try {
        const s = (await provider.create("idle")) as LocalSandbox;
        await s.run(`node -e "require('net').createServer().listen(5173, '0.0.0.0'); setInterval(() => {}, 1e6)"`, { background: true });
        const started = Date.now();
        while (Date.now() - started < 4_000 && !s.gone) {
          await s.previewTarget(5173).catch(() => {});
          await Bun.sleep(200);
        }
        expect(s.gone).toBe(true);
        expect(await provider.connect(s.id)).toBeNull();
      } finally {
        await provider.shutdown();
      }
    }, 30_000);

    test("a busy sandbox still stops at its maximum lifetime", async () => {
      const provider = createLocalProvider({ rootDir, idleTimeoutMs: 60_000, maxLifetimeMs: 2_000, limits: LIMITS, logger: silentLogger, spares: 0 });
      try {
        const s = (await provider.create("busy")) as LocalSandbox;
        const started = Date.now();
        while (Date.now() - started < 5_000 && !s.gone) await s.run("true").catch(() => {});
        expect(s.gone).toBe(true);
        expect(Date.now() - started).toBeLessThan(4_000);
      } finally {
        await provider.shutdown();
      }
    }, 30_000);
  });
}
