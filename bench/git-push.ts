/**
 * Git push on a generated 1,000-file project against a real git smart-HTTP server (git http-backend behind
 * basic auth on 127.0.0.1, api/src/test/git-server.ts): the first push to an empty repository (goal < 5 s),
 * then pushes after one file changed (median of the rounds; goal < 1 s), and one with the per-instance git
 * cache deleted first (the rebuild: a depth-1 fetch, then the push). Runs the git service directly (no
 * HTTP to the API), on embedded PGlite, or on PostgreSQL when TEST_DATABASE_URL is set.
 *
 *   bun bench/git-push.ts [--files 1000] [--rounds 5]
 */
import { projectAccess } from "../api/src/services/access";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { upsertUser } from "../api/src/db/users";
import { createMemoryBus } from "../api/src/events/memory-bus";
import { loadConfig } from "../api/src/lib/config";
import { silentLogger } from "../api/src/lib/logger";
import { createSecretBox } from "../api/src/lib/secret-box";
import { writeFileAtPath } from "../api/src/services/files";
import { createGitService } from "../api/src/services/git";
import { createProject } from "../api/src/services/projects";
import { createLocalStore } from "../api/src/storage/local";
import { startGitServer } from "../api/src/test/git-server";
import { testDb } from "../api/src/test/test-db";
import { forEachLimit } from "../api/src/services/versions/project-lock";
import { ms, sortedCopy, upperMedian as median } from "./support/stats";

const { values: opts } = parseArgs({ options: { files: { type: "string", default: "1000" }, rounds: { type: "string", default: "5" } } });
const FILES = Number(opts.files);
const ROUNDS = Number(opts.rounds);
const GOALS = { firstMs: 5000, nextMs: 1000 };

const dir = mkdtempSync(join(tmpdir(), "bench-git-"));
const db = await testDb();
const config = loadConfig({ DATA_DIR: dir, GIT_ALLOW_HTTP: "true", GIT_ALLOW_PRIVATE_HOSTS: "true" });
const ctx = { sql: db.sql, store: createLocalStore(join(dir, "objects")), logger: silentLogger, events: createMemoryBus(), config };
const git = createGitService({ ...ctx, box: createSecretBox(Buffer.alloc(32, 7)) });
const server = await startGitServer({ username: "bench", password: "bench-token" });

try {
  const uid = `bench-${crypto.randomUUID()}`;
  await upsertUser(db.sql, { id: uid, email: "bench@example.com", displayName: "Bench", photoURL: null });
  const project = await createProject(ctx, uid, { name: "Git bench" });
  const access = await projectAccess(ctx, uid, project.id, "own");
  const paths = Array.from({ length: FILES }, (_, i) => `src/module-${Math.floor(i / 50)}/file-${i}.ts`);
  await forEachLimit(paths, 8, async (path) => {
    await writeFileAtPath(ctx, access, path, `// ${path}\nexport const value = ${JSON.stringify(path)};\n${"// padding line\n".repeat(40)}`);
  });
  const url = server.createRepo("bench");
  await git.connect(access, { url, username: "bench", token: "bench-token" });

  let t0 = performance.now();
  const first = await git.push(access, { message: "First push" });
  const firstMs = performance.now() - t0;
  if (!first.pushed || first.files !== FILES) throw new Error(`first push did not push ${FILES} files: ${JSON.stringify(first)}`);

  const next: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await writeFileAtPath(ctx, access, paths[round % FILES]!, `// changed in round ${round}\n`);
    t0 = performance.now();
    const r = await git.push(access, { message: `Round ${round}` });
    next.push(performance.now() - t0);
    if (!r.pushed) throw new Error(`round ${round} pushed nothing`);
  }

  rmSync(join(dir, "git-cache"), { recursive: true, force: true });
  await writeFileAtPath(ctx, access, paths[1]!, "// changed after the cache was lost\n");
  t0 = performance.now();
  await git.push(access, { message: "After losing the cache" });
  const rebuildMs = performance.now() - t0;

  const commits = server.git(["--git-dir", server.pathOf("bench"), "rev-list", "--count", "main"]);
  const sorted = sortedCopy(next);
  console.log(`git push, ${FILES} files (${commits} commits on the remote)`);
  console.log(`  first push:            ${ms(firstMs)}  (goal < ${GOALS.firstMs} ms) ${firstMs < GOALS.firstMs ? "ok" : "OVER"}`);
  console.log(
    `  one file changed:      median ${ms(median(sorted))}, max ${ms(sorted.at(-1)!)} over ${ROUNDS}  (goal < ${GOALS.nextMs} ms) ${median(sorted) < GOALS.nextMs ? "ok" : "OVER"}`,
  );
  console.log(`  after losing the cache: ${ms(rebuildMs)} (a depth-1 fetch, then every blob hashed again)`);
} finally {
  server.close();
  await db.close?.();
  rmSync(dir, { recursive: true, force: true });
}
