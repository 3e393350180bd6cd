/**
 * Attack replayed: an operator leaves FIREBASE_AUTH_EMULATOR_HOST set beside a real Firebase project (or
 * points it at another machine). The app used to start in emulator mode silently, and then accepted
 * hand-made unsigned tokens for any uid of the real project.
 * Safe outcome: the real entry point refuses to start, with a message naming both variables.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ENTRY = resolve(import.meta.dir, "../api/src/index.ts");

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "emulator-mix-"));
  const r = Bun.spawnSync(["bun", ENTRY], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dataDir, DATA_DIR: dataDir, PORT: "0", SANDBOX_WARM_TEMPLATES: "none", ...env },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
  });
  return { code: r.exitCode, output: `${r.stdout.toString()}${r.stderr.toString()}` };
}

describe("emulated sign-in beside real sign-in", () => {
  test("emulator host + a real (non-demo) project id: refuses to start, naming both variables", () => {
    const r = start({ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", FIREBASE_PROJECT_ID: "acme-prod" });
    expect(r.code).toBe(1);
    expect(r.output).toContain("FIREBASE_AUTH_EMULATOR_HOST");
    expect(r.output).toContain("FIREBASE_PROJECT_ID=acme-prod");
    expect(r.output).not.toContain("Listening on");
  });

  test("emulator host + FIREBASE_API_KEY: refuses to start, naming both variables", () => {
    const r = start({ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", FIREBASE_PROJECT_ID: "demo-x", FIREBASE_API_KEY: "AIzaSyReal" });
    expect(r.code).toBe(1);
    expect(r.output).toContain("FIREBASE_AUTH_EMULATOR_HOST");
    expect(r.output).toContain("FIREBASE_API_KEY");
  });

  test("an emulator host that is not loopback: refuses to start, naming both variables", () => {
    const r = start({ FIREBASE_AUTH_EMULATOR_HOST: "203.0.113.7:9099", FIREBASE_PROJECT_ID: "demo-x" });
    expect(r.code).toBe(1);
    expect(r.output).toContain("FIREBASE_AUTH_EMULATOR_HOST=203.0.113.7:9099");
    expect(r.output).toContain("FIREBASE_PROJECT_ID");
  });
});
