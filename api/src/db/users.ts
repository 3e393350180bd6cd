/** Queries on `users`. */
import type { User } from "@shared/schemas/user";
import type { Sql } from "./client";

export async function upsertUser(sql: Sql, user: User): Promise<User> {
  const [row] = await sql<User[]>`
    insert into users (id, email, display_name, photo_url)
    values (${user.id}, ${user.email}, ${user.displayName}, ${user.photoURL})
    on conflict (id) do update set
      email = excluded.email,
      display_name = excluded.display_name,
      photo_url = excluded.photo_url,
      updated_at = now()
    returning id, email, display_name as "displayName", photo_url as "photoURL"`;
  return row!;
}

/** Makes sure a row exists for a verified caller without overwriting what sync stored. */
export async function ensureUser(sql: Sql, user: User): Promise<void> {
  await sql`
    insert into users (id, email, display_name, photo_url)
    values (${user.id}, ${user.email}, ${user.displayName}, ${user.photoURL})
    on conflict (id) do nothing`;
}
