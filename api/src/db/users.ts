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

/** The user's e-mail and name as last stored, or null when there is no such user. */
export async function findUserEmail(sql: Sql, id: string): Promise<{ email: string | null; name: string | null } | null> {
  const [row] = await sql<{ email: string | null; name: string | null }[]>`select email, display_name as name from users where id = ${id}`;
  return row ?? null;
}
