/**
 * Whether the tests' database takes TLS connections (`sslmode=require`), for the suites that replay faults
 * over TLS. PGlite never does; a local PostgreSQL does once scripts/setup-test-env.sh has turned ssl on.
 */
import type { TestDb } from "./test-db";

/** Why TLS cannot be tested against `db`, or null when it can. */
export async function databaseTlsMissing(db: TestDb): Promise<string | null> {
  if ("unix" in db.target) return "the embedded PGlite has no TLS; set TEST_DATABASE_URL to a PostgreSQL with ssl = on";
  const [row] = await db.sql<{ ssl: string }[]>`show ssl`;
  if (row?.ssl === "on") return null;
  return `the PostgreSQL at TEST_DATABASE_URL has ssl = ${row?.ssl}; scripts/setup-test-env.sh turns it on`;
}
