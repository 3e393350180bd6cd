/** Bearer-token sign-in for API routes: verifies the Firebase ID token and puts the caller on the context. */
import { createMiddleware } from "hono/factory";
import { notFound, unauthorized } from "../lib/errors";
import type { Identity, TokenVerifier } from "./types";

export type AuthEnv = { Variables: { caller: Identity } };

export function requireAuth(verifyToken: TokenVerifier, onCaller?: (caller: Identity) => Promise<void>) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthorized("Sign in first: this request has no bearer token.");
    const caller = await verifyToken(match[1]!);
    if (onCaller) await onCaller(caller);
    c.set("caller", caller);
    await next();
  });
}

/**
 * Sign-in for the admin routes: anyone who is not an admin, signed out or with a bad token included, gets the
 * 404 an unknown API route gets, so the routes' existence is not revealed. An admin then passes `onCaller`
 * like any request (a disabled admin is refused there).
 */
export function requireAdmin(verifyToken: TokenVerifier, isAdmin: (caller: Identity) => boolean, onCaller?: (caller: Identity) => Promise<void>) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
    const caller = match ? await verifyToken(match[1]!).catch(() => null) : null;
    if (!caller || !isAdmin(caller)) throw notFound("API route");
    if (onCaller) await onCaller(caller);
    c.set("caller", caller);
    await next();
  });
}
