/**
 * Project databases for tests: on TEST_DATABASE_URL's server (as its admin) when set, else embedded PGlite in a
 * temp folder. The embedded template (initdb, seconds) is kept in the temp folder between runs of this machine.
 *
 * @example
 * const ctx = await appDatabasesContext({ maxBytes: 1 << 20 });
 * const project = await createProject(ctx, await ctx.newUser("ann"), { name: "Todo" });
 * await ensureProjectDatabase(ctx, project.id);
 * await ctx.closeAppDatabases();
 */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppDatabasesConfig } from "../lib/config";
import { silentLogger } from "../lib/logger";
import { createAppDatabases } from "../services/app-databases";
import { serviceContext } from "./service-context";
import { testDb } from "./test-db";

const CACHED_TEMPLATE = join(tmpdir(), "app-databases-test-template-pglite-0.5");

export async function appDatabasesContext(o: { maxBytes?: number; versionMaxBytes?: number; idleMs?: number; spare?: boolean } = {}) {
  const ctx = await serviceContext();
  const db = await testDb();
  const common = { maxBytes: o.maxBytes ?? 256 * 1024 * 1024, versionMaxBytes: o.versionMaxBytes ?? 50 * 1024 * 1024, idleMs: o.idleMs ?? 60_000 };
  let dir: string | null = null;
  let config: AppDatabasesConfig;
  if (db.kind === "postgres") config = { kind: "postgres", adminUrl: process.env.TEST_DATABASE_URL!, ...common };
  else {
    dir = mkdtempSync(join(tmpdir(), "app-databases-test-"));
    if (existsSync(CACHED_TEMPLATE)) cpSync(CACHED_TEMPLATE, join(dir, ".template"), { recursive: true });
    // No spare unless asked for: a test process would pay a PGlite start for a project it never makes.
    config = { kind: "embedded", dir, spare: o.spare ?? false, ...common };
  }
  const appDatabases = createAppDatabases({ config, sql: ctx.sql, logger: silentLogger });
  const productionDatabases = createAppDatabases({ config, sql: ctx.sql, logger: silentLogger, environment: "production" });
  return {
    ...ctx,
    appDatabases,
    productionDatabases,
    appDatabasesConfig: config,
    async closeAppDatabases() {
      await appDatabases.close();
      await productionDatabases.close();
      if (!dir) return;
      if (!existsSync(CACHED_TEMPLATE) && existsSync(join(dir, ".template"))) {
        const staging = `${CACHED_TEMPLATE}-${process.pid}`;
        cpSync(join(dir, ".template"), staging, { recursive: true });
        try {
          renameSync(staging, CACHED_TEMPLATE);
        } catch {
          rmSync(staging, { recursive: true, force: true });
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
