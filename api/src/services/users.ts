/** Keeps the users table in step with the identity provider. */
import type { SyncUser, User } from "@shared/schemas/user";
import type { Identity } from "../auth/types";
import * as users from "../db/users";
import { badRequest } from "../lib/errors";
import type { ServiceContext } from "./context";

/** Stores what the client says about the signed-in user; the id must be the caller's own. */
export async function syncUser(ctx: ServiceContext, caller: Identity, input: SyncUser): Promise<User> {
  if (input.id !== caller.uid) throw badRequest("id does not match the signed-in user");
  return users.upsertUser(ctx.sql, {
    id: caller.uid,
    email: input.email ?? caller.email,
    displayName: input.displayName ?? caller.name,
    photoURL: input.photoURL ?? caller.picture,
  });
}

/**
 * Projects reference users, so a caller who never synced still needs a row. Known uids are remembered
 * per process so this costs no query on the hot path.
 */
export function createUserEnsurer(ctx: Pick<ServiceContext, "sql">, maxRemembered = 10_000) {
  const known = new Set<string>();
  return async (caller: Identity): Promise<void> => {
    if (known.has(caller.uid)) return;
    await users.ensureUser(ctx.sql, { id: caller.uid, email: caller.email, displayName: caller.name, photoURL: caller.picture });
    if (known.size >= maxRemembered) known.clear();
    known.add(caller.uid);
  };
}
