/** Rate-limit counting on the real database (PGlite, or TEST_DATABASE_URL): per action and user, 429 past the limit. */
import { beforeAll, describe, expect, test } from "bun:test";
import { AppError } from "../lib/errors";
import { silentLogger } from "../lib/logger";
import { testDb, type TestDb } from "../test/test-db";
import { createRateLimiter } from "./rate-limits";

let db: TestDb;
beforeAll(async () => {
  db = await testDb();
}, 60_000);

const limiter = (limits: { chat: number; uploads: number; shell: number; publish?: number }) =>
  createRateLimiter({
    sql: db.sql,
    logger: silentLogger,
    config: { rateLimits: { windowSeconds: 3600, publish: 0, sandbox: 0, projects: 0, downloads: 0, ...limits } },
  });

describe("rate limiter", () => {
  test("allows `max` hits per window, then refuses with 429 and the time left", async () => {
    const limits = limiter({ chat: 2, uploads: 5, shell: 5 });
    const uid = `u-${crypto.randomUUID()}`;
    await limits.hit("chat", uid);
    await limits.hit("chat", uid);
    const refused = await limits.hit("chat", uid).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(429);
    expect((refused as AppError).code).toBe("rate_limited");
    expect((refused as AppError).message).toContain("chat messages");
    const retryAfter = Number((refused as AppError).headers["Retry-After"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  });

  test("counts are per action and per user, and shared by every limiter on the database", async () => {
    const uid = `u-${crypto.randomUUID()}`;
    const one = limiter({ chat: 1, uploads: 1, shell: 1 });
    const other = limiter({ chat: 1, uploads: 1, shell: 1 }); // another instance
    await one.hit("shell", uid);
    await one.hit("uploads", uid);
    await one.hit("shell", `u-${crypto.randomUUID()}`);
    expect(((await other.hit("shell", uid).catch((e: unknown) => e)) as AppError).status).toBe(429);
  });

  test("a limit of 0 turns the action's limit off", async () => {
    const limits = limiter({ chat: 0, uploads: 1, shell: 1 });
    const uid = `u-${crypto.randomUUID()}`;
    for (let i = 0; i < 5; i++) await limits.hit("chat", uid);
    const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from rate_limit_counters where bucket = ${`chat:${uid}`}`;
    expect(row!.n).toBe(0);
  });
});
