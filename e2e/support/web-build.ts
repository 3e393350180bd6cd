/** Browser tests run against web/dist; build it once if it is missing. */
import { existsSync } from "node:fs";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dir, "..", "..");

export function ensureWebBuilt(): void {
  if (existsSync(join(REPO_ROOT, "web/dist/index.html"))) return;
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) {
    throw new Error(`bun run build failed:\n${build.stdout.toString()}\n${build.stderr.toString()}`);
  }
}
