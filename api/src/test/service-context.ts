/**
 * A ServiceContext for calling services directly, without the HTTP app: the test database, a local object
 * store in a temp folder, an in-process event bus that records what it carries, and the given limits.
 *
 * @example
 * const ctx = await serviceContext();
 * const uid = await ctx.newUser("alice");
 * const project = await createProject(ctx, uid, { name: "Todo" });
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryBus } from "../events/memory-bus";
import type { BusEvent } from "../events/types";
import type { Config } from "../lib/config";
import { silentLogger } from "../lib/logger";
import type { ServiceContext } from "../services/context";
import { createUserEnsurer } from "../services/users";
import { guardStore } from "../storage/guard";
import { createLocalStore } from "../storage/local";
import type { ObjectStore } from "../storage/types";
import { testDb } from "./test-db";

const DEFAULT_LIMITS: Config["limits"] = {
  maxUploadBytes: 5 << 20,
  maxBodyBytes: 10 << 20,
  maxFilesPerProject: 1000,
  maxProjectBytes: 100 << 20,
  maxMembersPerProject: 20,
  maxProjectsPerUser: 100,
  maxSandboxesPerUser: 3,
};

export async function serviceContext(o: { limits?: Partial<Config["limits"]>; store?: ObjectStore } = {}) {
  const db = await testDb();
  const store = o.store ?? guardStore(createLocalStore(mkdtempSync(join(tmpdir(), "service-test-"))));
  const events = createMemoryBus();
  const published: BusEvent[] = [];
  events.subscribe((event) => published.push(event));
  const ctx: ServiceContext = { sql: db.sql, store, logger: silentLogger, events, config: { limits: { ...DEFAULT_LIMITS, ...o.limits } } };
  const ensureUser = createUserEnsurer(ctx);
  return {
    ...ctx,
    /** Every event published so far (delivered a microtask after publishing). */
    published,
    /** A fresh user row; returns its uid. */
    async newUser(name: string): Promise<string> {
      const uid = `${name}-${crypto.randomUUID()}`;
      await ensureUser({ uid, email: `${name}@example.com`, name, picture: null });
      return uid;
    },
  };
}
