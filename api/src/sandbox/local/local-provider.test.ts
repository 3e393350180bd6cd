/**
 * The local provider against the shared contract, plus what only it promises: id shape, the output cap,
 * idle stop, per-sandbox preview ports and the refusal when it cannot isolate.
 */
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { silentLogger } from "../../lib/logger.ts";
import { previewUrl, sandboxContract, waitFor } from "../sandbox.contract.ts";
import { SandboxUnavailableError } from "../types.ts";
import { createLocalProvider } from "./local-provider.ts";
import type { LocalSandbox } from "./local-sandbox.ts";
import { pidsOfUid } from "./procs.ts";
import { localSuiteGate, tempSandboxRoot } from "./test-support.ts";

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

    test("two sandboxes serve the same port, each its own preview", async () => {
      const [a, b] = await Promise.all([p.create("a"), p.create("b")]);
      for (const [s, name] of [[a, "A"], [b, "B"]] as const) {
        await s.files.write("srv.cjs", `require("http").createServer((q, r) => r.end("${name}")).listen(5173, "0.0.0.0");`);
        await s.run("node srv.cjs", { background: true });
      }
      const urls = await Promise.all([previewUrl(a, 5173), previewUrl(b, 5173)]);
      expect(urls[0]).not.toBe(urls[1]);
      expect(await previewUrl(a, 5173)).toBe(urls[0]!); // one forward per port
      for (const [url, name] of [[urls[0]!, "A"], [urls[1]!, "B"]]) {
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
