/**
 * One template dependency cache for every app the browser tests start (SANDBOX_TEMPLATE_CACHE_DIR), so the
 * react template's `npm install` runs once per test run instead of once per test file. The folder lives for
 * the test run; its path is kept in the environment so every test file of the run finds the same one.
 * `bun test` runs no exit handlers, so each run removes the folders earlier runs left (past any run's length).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const VARIABLE = "E2E_TEMPLATE_CACHE_DIR";
const PREFIX = "e2e-template-cache-";
const LEFT_OVER_AFTER_MS = 3 * 60 * 60_000;

function removeLeftOvers() {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    try {
      if (Date.now() - statSync(dir).mtimeMs > LEFT_OVER_AFTER_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another run removed it first.
    }
  }
}

export function sharedTemplateCacheDir(): string {
  const known = process.env[VARIABLE];
  if (known && existsSync(known)) return known;
  removeLeftOvers();
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  process.env[VARIABLE] = dir;
  return dir;
}

/** Whether the shared cache holds a finished entry for `template` (the provider fills it in the background). */
export function templateCacheFilled(template = "react"): boolean {
  const dir = sharedTemplateCacheDir();
  return readdirSync(dir).some((name) => name.startsWith(`${template}-`) && existsSync(join(dir, name, "ready.json")));
}
