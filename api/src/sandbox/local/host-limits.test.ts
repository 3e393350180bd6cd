/**
 * The cgroup mode in force and the admission budget. The v2 path runs only where this machine offers a
 * cgroup v2 hierarchy with memory, pids and cpu delegated; elsewhere (e.g. a cgroup v1 host such as the
 * project's development machines) it is skipped, saying why. The whole-app side (503 on a full host, the
 * start-up lines, /api/ready's details) is in services/sandboxes/host-admission.test.ts.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { silentLogger } from "../../lib/logger.ts";
import { localSuiteGate, tempSandboxRoot } from "../../test/local-sandbox-support.ts";
import { HostFullError } from "../types.ts";
import { cgroup2Mount, detectCgroups, ownCgroup2Path } from "./cgroups.ts";
import { defaultMaxSandboxes, describeHostLimits } from "./host-limits.ts";
import { createLimits } from "./limits.ts";
import { createLocalProvider } from "./local-provider.ts";

describe("host limits", () => {
  test("the default budget keeps 2 GiB and gives each sandbox its whole memory limit, at least one", () => {
    expect(defaultMaxSandboxes(24 * 1024, 1024)).toBe(22);
    expect(defaultMaxSandboxes(4 * 1024, 512)).toBe(4);
    expect(defaultMaxSandboxes(2 * 1024, 1024)).toBe(1);
  });

  test("mountinfo and /proc/self/cgroup are read for the unified hierarchy (pure v2 and hybrid hosts)", () => {
    const v2 = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate";
    const hybrid = "31 25 0:27 / /sys/fs/cgroup/unified rw shared:5 - cgroup2 cgroup2 rw\n32 25 0:28 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory";
    expect(cgroup2Mount(v2)).toBe("/sys/fs/cgroup");
    expect(cgroup2Mount(hybrid)).toBe("/sys/fs/cgroup/unified");
    expect(cgroup2Mount("32 25 0:28 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory")).toBeNull();
    expect(ownCgroup2Path("0::/system.slice/app.service\n")).toBe("/system.slice/app.service");
    expect(ownCgroup2Path("4:memory:/x\n")).toBeNull();
  });

  test("this machine's mode is stated with where or why, and turning cgroups off says what is left", () => {
    const mode = detectCgroups();
    expect(["v2", "v1", "none"]).toContain(mode.kind);
    expect(mode.detail).toContain(mode.kind === "none" ? "no cgroups" : `cgroup ${mode.kind}`);
    console.log(`cgroup mode on this machine: ${mode.detail}`);
    const off = describeHostLimits({ cgroups: false, maxSandboxes: 3 }, { memoryMb: 1024, pids: 512, cpuPercent: 100 });
    expect(off).toMatchObject({ cgroups: "none", maxSandboxes: 3 });
    expect(off.detail).toContain("RLIMIT_NPROC");
  });
});

const v2 = detectCgroups();
if (v2.kind !== "v2") {
  const reason = `cgroup v2 path skipped: this machine offers no cgroup v2 hierarchy with memory, pids and cpu delegated (${v2.detail})`;
  console.log(reason);
  test.skip(reason, () => {});
} else {
  describe("cgroup v2 limits", () => {
    test("a wrapped process lands in its own cgroup with memory.max, pids.max and cpu.max, and forks past pids.max fail", async () => {
      const limits = createLimits(`v2test${process.pid}`, { memoryMb: 64, pids: 8, cpuPercent: 50 }, silentLogger, { prlimit: "/usr/bin/prlimit" });
      const dir = limits.cgroups.memory!;
      try {
        expect(path.dirname(dir)).toBe(v2.parent);
        expect(fs.readFileSync(path.join(dir, "memory.max"), "utf8").trim()).toBe(String(64 * 1024 * 1024));
        expect(fs.readFileSync(path.join(dir, "pids.max"), "utf8").trim()).toBe("8");
        expect(fs.readFileSync(path.join(dir, "cpu.max"), "utf8").trim()).toBe("50000 100000");
        const proc = Bun.spawn(limits.wrap(["/bin/sh", "-c", "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 2 & done; wait"]), {
          stdout: "ignore",
          stderr: "ignore",
        });
        await Bun.sleep(500);
        expect(fs.readFileSync(`/proc/${proc.pid}/cgroup`, "utf8")).toContain(`::${dir.slice(cgroup2Mount()!.length)}`);
        expect(limits.pids()!.length).toBeLessThanOrEqual(8);
        await proc.exited;
        expect(limits.hits().pids).toBeGreaterThan(0);
      } finally {
        await limits.destroy();
      }
      expect(fs.existsSync(dir)).toBe(false);
    }, 30_000);
  });
}

if (await localSuiteGate("host admission", { sameOnEveryDatabase: true })) {
  describe("MAX_SANDBOXES_PER_HOST in the local provider", () => {
    test("a full host refuses the next start with a clear message, and admits again once one stopped", async () => {
      const rootDir = tempSandboxRoot("admission");
      const provider = createLocalProvider({ rootDir, idleTimeoutMs: 60_000, logger: silentLogger, spares: 0, maxSandboxes: 1 });
      try {
        expect(provider.hostLimits?.maxSandboxes).toBe(1);
        const first = await provider.create("one");
        const refused = await provider.create("two").then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(HostFullError);
        expect(String(refused)).toContain("MAX_SANDBOXES_PER_HOST");
        await first.kill();
        const again = await provider.create("three");
        expect((await again.run("echo ok")).stdout).toBe("ok\n");
      } finally {
        await provider.shutdown();
        fs.rmSync(rootDir, { recursive: true, force: true });
      }
    }, 60_000);
  });
}
