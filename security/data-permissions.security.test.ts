/**
 * Attack replayed: another local account on the host reads (or rewrites) the app's data: the embedded
 * database files (users, projects, the image-signing secret) were 0666 and stored objects world-readable.
 * Safe outcome: data folders are 0700 and files 0600, and a process running as another uid can read
 * neither the database files nor a stored object.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres } from "../api/src/db/embedded";
import { migrate } from "../api/src/db/migrate";
import { getOrCreateSecret } from "../api/src/db/secrets";
import { createLocalStore } from "../api/src/storage/local";

const OTHER_UID = "65534"; // nobody

/** Runs `argv` as another host user; returns its exit code (0 = it succeeded). */
function asOtherUser(argv: string[]): number {
  const r = Bun.spawnSync(["setpriv", `--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, "--clear-groups", ...argv], { stdout: "pipe", stderr: "pipe" });
  return r.exitCode;
}

function walk(root: string, out: { dirs: string[]; files: string[] } = { dirs: [], files: [] }) {
  out.dirs.push(root);
  for (const e of fs.readdirSync(root, { withFileTypes: true })) {
    const at = path.join(root, e.name);
    if (e.isDirectory()) walk(at, out);
    else if (e.isFile()) out.files.push(at);
  }
  return out;
}
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("data on the host is the app's alone", () => {
  test("another local user cannot read the embedded database files holding the image-signing secret", async () => {
    const dataDir = fs.mkdtempSync(path.join(tmpdir(), "perm-"));
    fs.chmodSync(dataDir, 0o755); // even a readable DATA_DIR must not expose the database
    const pgDir = path.join(dataDir, "pg");
    const embedded = await startEmbeddedPostgres({ dataDir: pgDir, maxConnections: 2 });
    const sql = postgres({ path: embedded.socketPath, database: "postgres", username: "postgres", max: 1, onnotice: () => {} });
    await migrate(sql as never, { lock: false });
    const secret = await getOrCreateSecret(sql as never, "image_url_key");
    await sql.end();
    await embedded.stop();

    const { dirs, files } = walk(pgDir);
    expect(files.length).toBeGreaterThan(100);
    expect(dirs.filter((d) => mode(d) !== 0o700)).toEqual([]);
    expect(files.filter((f) => mode(f) !== 0o600)).toEqual([]);
    // The replay: as uid nobody, list the folder, read a file, search the files for the secret.
    expect(asOtherUser(["ls", pgDir])).not.toBe(0);
    expect(asOtherUser(["cat", path.join(pgDir, "PG_VERSION")])).not.toBe(0);
    expect(asOtherUser(["grep", "-rqF", secret, pgDir])).not.toBe(0);
    // …while the app's own user (root here) finds it, so the search above could have succeeded.
    expect(Bun.spawnSync(["grep", "-rqF", secret, pgDir]).exitCode).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test("another local user cannot read a stored project file", async () => {
    const dataDir = fs.mkdtempSync(path.join(tmpdir(), "perm-"));
    fs.chmodSync(dataDir, 0o755);
    const store = createLocalStore(path.join(dataDir, "objects"));
    await store.ping();
    await store.put("projects/p1/files/secret.env", new TextEncoder().encode("API_KEY=hunter2"));
    const file = path.join(dataDir, "objects/projects/p1/files/secret.env");
    expect(mode(path.join(dataDir, "objects"))).toBe(0o700);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(asOtherUser(["cat", file])).not.toBe(0);
    expect(asOtherUser(["ls", path.join(dataDir, "objects")])).not.toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
