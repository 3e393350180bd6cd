/** Keeps the users table in step with the identity provider. */
import type { SyncUser, User } from "@shared/schemas/user";
import type { Identity } from "../auth/types";
import * as users from "../db/users";
import { badRequest } from "../lib/errors";
import type { ServiceContext } from "./context";
import { acceptInvitations } from "./members";

/**
 * Stores the signed-in user's profile as the verified ID token states it. The body only names the caller:
 * an e-mail, name or photo URL in it is ignored, since a client could claim anyone's e-mail address or
 * plant a `javascript:` URL that other screens would later render.
 */
export async function syncUser(ctx: ServiceContext, caller: Identity, input: SyncUser): Promise<User> {
  if (input.id !== caller.uid) throw badRequest("id does not match the signed-in user");
  const user = await users.upsertUser(ctx.sql, profileOf(caller));
  // Signing in with a verified e-mail takes up the invitations to it.
  await acceptInvitations(ctx, caller);
  return user;
}

/** The row for a caller: the token's claims, with a photo URL kept only when it is http(s). */
export function profileOf(caller: Identity): User {
  return { id: caller.uid, email: caller.email, displayName: caller.name, photoURL: webUrlOrNull(caller.picture) };
}

/** `url` when it is an absolute http: or https: URL, else null (javascript:, data:, relative…). */
export function webUrlOrNull(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Projects reference users, so a caller who never synced still needs a row (and takes up the invitations to
 * their verified e-mail, as a sign-in does). Known uids are remembered per process so this costs no query on
 * the hot path.
 */
export function createUserEnsurer(ctx: Pick<ServiceContext, "sql">, maxRemembered = 10_000) {
  const known = new Set<string>();
  return async (caller: Identity): Promise<void> => {
    if (known.has(caller.uid)) return;
    await users.ensureUser(ctx.sql, profileOf(caller));
    await acceptInvitations(ctx, caller);
    if (known.size >= maxRemembered) known.clear();
    known.add(caller.uid);
  };
}
