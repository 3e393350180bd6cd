/**
 * The local provider's shutdown leaves nothing mounted: every sandbox it started (handed out, the spare, or
 * one still starting) is torn down before shutdown resolves, its disk volume gone from /proc/self/mountinfo
 * and its folder removed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { silentLogger } from "../../lib/logger.ts";
import { localSuiteGate, mountsUnder, tempSandboxRoot } from "../../test/local-sandbox-support.ts";
import { waitFor } from "../../test/sandbox-contract.ts";
import { VOLUME_DIR } from "./disk.ts";
import { createLocalProvider } from "./local-provider.ts";
import type { LocalSandbox } from "./local-sandbox.ts";

const roots: string[] = [];
function provider(spares: number) {
  const rootDir = tempSandboxRoot("shutdown");
  roots.push(rootDir);
  // A small volume: mkfs of the template stays quick.
  return { rootDir, p: createLocalProvider({ rootDir, idleTimeoutMs: 60_000, logger: silentLogger, spares, diskMb: 64, diskReserveMb: 0 }) };
}

/** What is left in the root besides the disk template the provider keeps for its next start. */
const leftIn = (rootDir: string) => fs.readdirSync(rootDir).filter((name) => !name.startsWith(".disk-template-"));

afterAll(() => {
  for (const dir of roots) fs.rmSync(dir, { recursive: true, force: true });
});

if (await localSuiteGate("provider shutdown")) {
  describe("local provider shutdown", () => {
    test("unmounts the volumes of a handed-out sandbox and of the spare, and removes their folders", async () => {
      const { rootDir, p } = provider(1);
      const sandbox = (await p.create("shutdown")) as LocalSandbox;
      expect(mountsUnder(rootDir)).toContain(path.join(sandbox.host.baseDir, VOLUME_DIR));
      await waitFor("the spare's volume", async () => mountsUnder(rootDir).length === 2, 30_000);

      await p.shutdown();
      expect(mountsUnder(rootDir)).toEqual([]);
      expect(leftIn(rootDir)).toEqual([]);
      await expect(sandbox.run("echo hi")).rejects.toThrow("not running");
    }, 60_000);

    test("a sandbox still starting when shutdown begins is ended (refused, or ended if it just finished) before shutdown resolves", async () => {
      const { rootDir, p } = provider(0);
      await (await p.create("warm-up")).kill(); // the checks and the disk template, out of the way
      const creating = p.create("late");
      creating.catch(() => {});
      // Its volume is mounted early in the start; the supervisor and network come after.
      await waitFor("the starting sandbox's volume", async () => mountsUnder(rootDir).length === 1, 30_000);

      await p.shutdown();
      expect(mountsUnder(rootDir)).toEqual([]);
      expect(leftIn(rootDir)).toEqual([]);
      // The start usually is still under way and is refused; on a quick machine it may just have finished
      // (the volume is mounted a few milliseconds before the end), and then the sandbox it made is ended too.
      const made = await creating.then(
        (sandbox) => sandbox,
        (error: Error) => error,
      );
      if (made instanceof Error) expect(made.message).toContain("shut down");
      else await expect(made.run("echo hi")).rejects.toThrow("not running");
      await expect(p.create("after")).rejects.toThrow("shut down");
    }, 60_000);
  });
}
