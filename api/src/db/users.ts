/** Queries on `users`. */
import type { User } from "@shared/schemas/user";
import type { Sql } from "./client";

/** Stores the profile a sign-in presents, and records the sign-in's time (the admin page's "last sign-in"). */
export async function upsertUser(sql: Sql, user: User): Promise<User> {
  const [row] = await sql<User[]>`
    insert into users (id, email, display_name, photo_url, last_sign_in_at)
    values (${user.id}, ${user.email}, ${user.displayName}, ${user.photoURL}, now())
    on conflict (id) do update set
      email = excluded.email,
      display_name = excluded.display_name,
      photo_url = excluded.photo_url,
      last_sign_in_at = now(),
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

/** Whether the user is disabled, or null when there is no row for them yet. */
export async function findUserDisabled(sql: Sql, id: string): Promise<boolean | null> {
  const [row] = await sql<{ disabled: boolean }[]>`select disabled_at is not null as disabled from users where id = ${id}`;
  return row ? row.disabled : null;
}

/** Disables (`by` set) or re-enables (`by` null) the user; false when there is no such user. */
export async function setUserDisabled(sql: Sql, id: string, by: string | null): Promise<boolean> {
  const rows = await sql`
    update users set disabled_at = case when ${by}::text is null then null else coalesce(disabled_at, now()) end,
      disabled_by = ${by}, updated_at = now()
    where id = ${id} returning id`;
  return rows.length > 0;
}
