/** Server-wide secrets kept in the database, so every instance of the app shares them. */
import type { Sql } from "./client";

/** Returns the named secret, creating it (32 random bytes, base64url) on first use. */
export async function getOrCreateSecret(sql: Sql, name: string): Promise<string> {
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  await sql`insert into app_secrets (name, value) values (${name}, ${fresh}) on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from app_secrets where name = ${name}`;
  return row!.value;
}
