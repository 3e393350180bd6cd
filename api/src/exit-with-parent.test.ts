/**
 * EXIT_WITH_PARENT (set by every test harness that starts the real app): an app whose parent is gone does
 * not live on, even while its start-up still waits on a database that never answers.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parentToWatch, processAlive } from "./lib/parent-watch";

const ENTRY = resolve(import.meta.dir, "index.ts");
const dir = mkdtempSync(join(tmpdir(), "exit-with-parent-"));
// Accepts connections and never answers: the app's start-up waits on it.
const stalledDatabase = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
afterAll(() => {
  stalledDatabase.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const alive = processAlive;

test("an app whose parent exits during start-up (database not answering) exits within seconds", async () => {
  const pidFile = join(dir, "app.pid");
  // The parent: a shell that starts the app in the background, waits 2 s and leaves it behind.
  const parent = Bun.spawn(["bash", "-c", `EXIT_WITH_PARENT=$$ bun ${ENTRY} >${join(dir, "app.log")} 2>&1 & echo $! >${pidFile}; sleep 2`], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dir,
      DATABASE_URL: `postgres://app@127.0.0.1:${stalledDatabase.port}/app`,
      SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      INSTANCE_SECRET: "test-instance-secret-0123456789",
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
      FIREBASE_PROJECT_ID: "demo-exit-with-parent",
    },
  });
  await parent.exited;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  const log = () => readFileSync(join(dir, "app.log"), "utf8");
  // Still starting when its parent left: it never got to listen.
  expect(alive(pid)).toBe(true);
  expect(log()).not.toContain("Listening on");
  // Generous for a busy CI machine (the type-check runs beside this suite); it exits in well under a second when idle.
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await Bun.sleep(100);
  const stillAlive = alive(pid);
  if (stillAlive) process.kill(pid, "SIGKILL");
  expect(stillAlive).toBe(false);
}, 20_000);

test("EXIT_WITH_PARENT names the process to watch: a pid as given, 1 for the parent now, anything else none", () => {
  expect(parentToWatch("4242")).toBe(4242);
  expect(parentToWatch("1")).toBe(process.ppid);
  expect(parentToWatch(undefined)).toBeNull();
  expect(parentToWatch("yes")).toBeNull();
  expect(parentToWatch("0")).toBeNull();
  expect(processAlive(process.pid)).toBe(true);
});
