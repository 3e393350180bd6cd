/** Browser tests run against web/dist; build it when it is missing or older than the sources it is built from. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dir, "..", "..");

const SOURCES = ["web/src", "web/public", "web/index.html", "web/vite.config.ts", "shared/src"];

export function ensureWebBuilt(): void {
  const built = join(REPO_ROOT, "web/dist/index.html");
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource()) return;
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) {
    throw new Error(`bun run build failed:\n${build.stdout.toString()}\n${build.stderr.toString()}`);
  }
}

/** The latest modification time among the build's inputs (a stale dist would test yesterday's code). */
function newestSource(): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (!/\.test\.tsx?$/.test(path)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const source of SOURCES) visit(join(REPO_ROOT, source));
  return newest;
}
