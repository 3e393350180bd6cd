/** Keeps the users table in step with the identity provider. */
import type { SyncUser, User } from "@shared/schemas/user";
import type { Identity } from "../auth/types";
import * as users from "../db/users";
import { badRequest, forbidden } from "../lib/errors";
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

/** What a disabled user's requests answer (403), and why their sockets closed. */
export const DISABLED_MESSAGE = "This account has been disabled by an administrator of this server.";

/** How long a user's disabled flag is trusted before it is read again (the bus tells sooner, see below). */
const RECHECK_MS = 5_000;

export type UserGate = {
  /** Lets the verified caller in: makes their row if missing, and refuses (403) a disabled account. */
  admit(caller: Identity): Promise<void>;
  /** Reads the user's flag again on their next request (this instance disabled or enabled them). */
  forget(uid: string): void;
  close(): void;
};

/**
 * The check every signed-in request, WebSocket and terminal passes: the caller's row is made if missing
 * (`createUserEnsurer`), and a disabled account is refused. Whether they are disabled is read at most every
 * RECHECK_MS per user, so most requests cost no query; a `user.disabled` or `user.enabled` bus event from any
 * instance drops what was read at once, and RECHECK_MS bounds a missed event.
 */
export function createUserGate(ctx: Pick<ServiceContext, "sql" | "events">, maxRemembered = 10_000): UserGate {
  const ensure = createUserEnsurer(ctx, maxRemembered);
  const known = new Map<string, { disabled: boolean; readAt: number }>();
  const unsubscribe = ctx.events.subscribe((event) => {
    if (event.type === "user.disabled" || event.type === "user.enabled") known.delete(event.userId);
  });
  return {
    async admit(caller) {
      await ensure(caller);
      let seen = known.get(caller.uid);
      if (!seen || Date.now() - seen.readAt >= RECHECK_MS) {
        seen = { disabled: (await users.findUserDisabled(ctx.sql, caller.uid)) ?? false, readAt: Date.now() };
        if (known.size >= maxRemembered) known.clear();
        known.set(caller.uid, seen);
      }
      if (seen.disabled) throw forbidden(DISABLED_MESSAGE);
    },
    forget: (uid) => void known.delete(uid),
    close: unsubscribe,
  };
}
