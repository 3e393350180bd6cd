/**
 * Git remotes (services/git): which remotes the server may reach for a project, and how long one may take.
 * HTTPS to public addresses only by default; a forge on the local network or a plain-HTTP one is allowed
 * only when the operator says so.
 *
 * @example
 * gitConfig(e).git; // { allowHttp: false, allowPrivateHosts: false, timeoutMs: 60_000 }
 */
import type { z } from "zod";
import { boolString, positiveInt } from "./values";

export const gitEnv = {
  GIT_ALLOW_HTTP: boolString,
  GIT_ALLOW_PRIVATE_HOSTS: boolString,
  GIT_TIMEOUT_S: positiveInt(60),
};

export type GitConfig = { git: { allowHttp: boolean; allowPrivateHosts: boolean; timeoutMs: number } };

export function gitConfig(e: z.infer<z.ZodObject<typeof gitEnv>>): GitConfig {
  return { git: { allowHttp: e.GIT_ALLOW_HTTP, allowPrivateHosts: e.GIT_ALLOW_PRIVATE_HOSTS, timeoutMs: e.GIT_TIMEOUT_S * 1000 } };
}
