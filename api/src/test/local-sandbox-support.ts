/**
 * Shared set-up for the local sandbox test files: a gate that runs the suites only where sandboxes can work
 * (as root they must: a missing piece fails loudly; without root they are skipped with a plain message),
 * and a throw-away root folder per suite.
 *
 * @example
 * if (await localSuiteGate("isolation")) describe("isolation", () => { … });
 */
import { test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkLocalSandboxSupport } from "../sandbox/local/check.ts";

export async function localSuiteGate(name: string, options: { sameOnEveryDatabase?: boolean } = {}): Promise<boolean> {
  // `bun run test` runs the database suites twice (PostgreSQL, then PGlite). A sandbox suite whose database
  // use is plain reads and writes proves nothing new the second time and costs the most, so it runs once.
  if (options.sameOnEveryDatabase && process.env.SANDBOX_SUITES_RAN === "1") {
    console.log(`${name} suite: ran in the PostgreSQL pass (its database use is the same on PGlite)`);
    test.skip(`${name} suite (ran in the PostgreSQL pass)`, () => {});
    return false;
  }
  const support = await checkLocalSandboxSupport();
  if (support.ok) return true;
  if (process.getuid?.() !== 0) {
    console.log(`${name} suite skipped: local sandboxes need root (${support.missing.join("; ")})`);
    test.skip(`${name} suite (skipped: local sandboxes need root)`, () => {});
  } else {
    test(`${name}: local sandboxes are supported on this machine`, () => {
      throw new Error(`missing: ${support.missing.join("; ")} (run scripts/setup-test-env.sh)`);
    });
  }
  return false;
}

/** A fresh folder for sandboxes; remove it with `fs.rmSync(dir, { recursive: true, force: true })`. */
export function tempSandboxRoot(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sandbox-${label}-`));
}

/** Mount points below `dir` (local sandboxes' disk volumes), as /proc/self/mountinfo lists them. */
export function mountsUnder(dir: string): string[] {
  const prefix = `${path.resolve(dir)}/`;
  return fs
    .readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "")
    .filter((mountPoint) => mountPoint.startsWith(prefix));
}
