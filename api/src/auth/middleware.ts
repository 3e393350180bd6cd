/** Bearer-token sign-in for API routes: verifies the Firebase ID token and puts the caller on the context. */
import { createMiddleware } from "hono/factory";
import { unauthorized } from "../lib/errors";
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
