/**
 * What every provider's named processes must do, with real commands in a real sandbox (run by
 * `sandbox/local/processes.test.ts` and, with E2B_API_KEY, `sandbox/e2b.contract.test.ts`): a process keeps
 * running after the call that started it, is listed with the port it really listens on, restarts and stops
 * with its whole tree (no orphan listener), keeps fast output complete and in order, and a crash loop ends
 * in `crashed`.
 *
 * @example
 * processContract("local", () => createLocalProvider({ rootDir, idleTimeoutMs: 60_000, logger }));
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_PROCESSES, TooManyProcessesError, type ProcessInfo, type Sandbox, type SandboxProvider } from "../sandbox/types.ts";
import { waitFor } from "./sandbox-contract.ts";

const TEST_MS = 60_000;

/** A server whose listening socket belongs to a detached grandchild (its own session): a stray a stop must reach. */
const strayServer = (port: number) =>
  `setsid python3 -c "import http.server,os;print('server run',os.urandom(6).hex(),flush=True);http.server.HTTPServer(('0.0.0.0',${port}),http.server.SimpleHTTPRequestHandler).serve_forever()" & sleep 1000`;

/** Whether anything in the sandbox listens on `port` (read from the kernel's own table, inside). */
export async function listensInside(sandbox: Sandbox, port: number): Promise<boolean> {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const res = await sandbox.run(`cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4=="0A"{print $2}'`);
  return res.stdout.split("\n").some((local) => local.trim().endsWith(`:${hex}`));
}

export function processContract(name: string, makeProvider: () => Promise<SandboxProvider> | SandboxProvider): void {
  describe(`${name} named processes`, () => {
    let provider: SandboxProvider;
    let sandbox: Sandbox;
    const find = async (n: string) => (await sandbox.processes.list()).find((p) => p.name === n);

    beforeAll(async () => {
      provider = await makeProvider();
      sandbox = await provider.create("process-contract");
    }, TEST_MS);
    afterAll(async () => {
      await provider?.shutdown();
    }, TEST_MS);

    test(
      "a process keeps running, is listed with its detected port, restarts, and stops with its whole tree",
      async () => {
        const started = await sandbox.processes.start("web", strayServer(8123));
        expect(started).toMatchObject({ name: "web", status: "starting", restarts: 0, exitCode: null });
        const running = await waitFor("the port to be detected", async () => {
          const p = await find("web");
          return p?.status === "running" && p.ports.includes(8123) ? p : null;
        });
        expect(running.ports).toEqual([8123]);
        expect(await listensInside(sandbox, 8123)).toBe(true);

        const restarted = (await sandbox.processes.restart("web")) as ProcessInfo;
        expect(restarted.restarts).toBe(1);
        expect(Date.parse(restarted.startedAt!)).toBeGreaterThanOrEqual(Date.parse(running.startedAt!));
        await waitFor("the port after the restart", async () => (await find("web"))?.ports.includes(8123));
        const logs = await sandbox.processes.logs("web");
        const runs = new Set(logs!.lines.filter((l) => l.text.startsWith("server run")).map((l) => l.text));
        expect(runs.size).toBe(2); // a new server, not the old one still answering

        const stopped = (await sandbox.processes.stop("web")) as ProcessInfo;
        expect(stopped.status).toBe("exited");
        expect(stopped.ports).toEqual([]);
        expect(await listensInside(sandbox, 8123)).toBe(false);
        expect(await sandbox.processes.stop("nope")).toBeNull();
        expect(await sandbox.processes.restart("nope")).toBeNull();
        expect(await sandbox.processes.logs("nope")).toBeNull();
      },
      TEST_MS,
    );

    test(
      "fast output is kept complete and in order, each line time-stamped, and read on from a cursor",
      async () => {
        const n = 20_000;
        await sandbox.processes.start("burst", `for i in $(seq 1 ${n}); do echo "out $i"; done; echo "err done" >&2`);
        await waitFor("the burst to end", async () => (await find("burst"))?.status === "exited", 30_000);
        const all = (await sandbox.processes.logs("burst"))!;
        const out = all.lines.filter((l) => l.stream === "stdout").map((l) => l.text);
        expect(out.length).toBe(n);
        expect(out.every((text, i) => text === `out ${i + 1}`)).toBe(true);
        expect(all.lines.filter((l) => l.stream === "stderr").map((l) => l.text)).toEqual(["err done"]);
        expect(all.lines.every((l) => !Number.isNaN(Date.parse(l.t)))).toBe(true);
        expect((await find("burst"))?.exitCode).toBe(0);
        const later = (await sandbox.processes.logs("burst", all.cursor))!;
        expect(later).toEqual({ lines: [], cursor: all.cursor });
        const tail = (await sandbox.processes.logs("burst", all.cursor - 2))!;
        expect(tail.lines.map((l) => l.text)).toEqual(all.lines.slice(-2).map((l) => l.text));
      },
      TEST_MS,
    );

    test(
      "a process that crashes in a loop is restarted 5 times, then stays crashed with its log",
      async () => {
        await sandbox.processes.start("crashy", "echo boom; exit 3");
        const crashed = await waitFor(
          "the crash loop to end",
          async () => {
            const p = await find("crashy");
            return p?.status === "crashed" ? p : null;
          },
          30_000,
        );
        expect(crashed).toMatchObject({ restarts: 5, exitCode: 3 });
        const logs = (await sandbox.processes.logs("crashy"))!;
        expect(logs.lines.filter((l) => l.text === "boom").length).toBe(6);
        await Bun.sleep(1000);
        expect((await find("crashy"))?.status).toBe("crashed");
      },
      TEST_MS,
    );

    test(
      "a process tree that ignores SIGTERM is killed after the grace period: exited, 137, nothing of it left",
      async () => {
        // Parent and child both ignore SIGTERM and keep touching a file each, so a survivor shows.
        const beat = (file: string) => `while true; do date +%s%N > ${file}; sleep 0.1; done`;
        const stubborn = `trap '' TERM; (${beat(".stubborn-child")}) & ${beat(".stubborn")}`;
        await sandbox.processes.start("stubborn", stubborn);
        const beats = async () => (await sandbox.run("cat .stubborn .stubborn-child 2>/dev/null")).stdout;
        await waitFor("both to beat", async () => (await beats()).split("\n").filter(Boolean).length === 2);
        const startedAt = Date.now();
        const stopped = (await sandbox.processes.stop("stubborn")) as ProcessInfo;
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_500); // SIGTERM was tried first, and ignored
        expect(stopped).toMatchObject({ name: "stubborn", status: "exited", exitCode: 137, ports: [] });
        const after = await beats();
        await Bun.sleep(1_000);
        expect(await beats()).toBe(after); // neither beats on
        await Bun.sleep(500);
        expect((await find("stubborn"))?.status).toBe("exited"); // and it is not restarted
      },
      TEST_MS,
    );

    test(
      `at most ${MAX_PROCESSES} named processes; a name is replaced, not added`,
      async () => {
        const before = (await sandbox.processes.list()).length;
        for (let i = before; i < MAX_PROCESSES; i++) await sandbox.processes.start(`idle${i}`, "sleep 1000");
        expect((await sandbox.processes.list()).length).toBe(MAX_PROCESSES);
        await expect(sandbox.processes.start("one-too-many", "sleep 1000")).rejects.toBeInstanceOf(TooManyProcessesError);
        const replaced = await sandbox.processes.start("crashy", "sleep 1000");
        expect(replaced).toMatchObject({ command: "sleep 1000", restarts: 0, status: "starting" });
      },
      TEST_MS,
    );
  });
}
