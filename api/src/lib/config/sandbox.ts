/**
 * Sandboxes: which provider runs them, how long one lives idle or at all, each local sandbox's disk, the
 * templates warmed at start-up, and how long a silent terminal stays open.
 *
 * @example
 * sandboxConfig(e).sandbox; // { provider: "local" } unless SANDBOX_PROVIDER=e2b with E2B_API_KEY
 */
import { TEMPLATE_NAMES, type TemplateName } from "@shared/schemas/sandbox";
import { resolve } from "node:path";
import { z } from "zod";
import { ConfigError, countOrOff, optionalString, positiveInt } from "./values";

export const sandboxEnv = {
  SANDBOX_PROVIDER: optionalString.pipe(z.enum(["local", "e2b"], { message: 'must be "local" or "e2b"' }).optional()),
  E2B_API_KEY: optionalString,
  SANDBOX_IDLE_MINUTES: positiveInt(30),
  SANDBOX_MAX_LIFETIME_MINUTES: countOrOff(720),
  TERMINAL_IDLE_TIMEOUT_S: countOrOff(900),
  SANDBOX_DISK_MB: countOrOff(2048),
  SANDBOX_DISK_RESERVE_MB: countOrOff(1024),
  SANDBOX_TEMPLATE_CACHE_DIR: optionalString,
  SANDBOX_CGROUP: optionalString,
  // -1 stands for unset: the local provider derives the budget from memory.
  MAX_SANDBOXES_PER_HOST: countOrOff(-1),
  SANDBOX_WARM_TEMPLATES: optionalString.transform((v, ctx): TemplateName[] => {
    if (v === undefined) return ["react"];
    if (v === "none") return [];
    const names = v
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    const unknown = names.filter((n) => !(TEMPLATE_NAMES as readonly string[]).includes(n));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `must be "none" or a comma-separated list of ${TEMPLATE_NAMES.join(", ")}; got "${unknown.join(", ")}"` });
      return z.NEVER;
    }
    return names as TemplateName[];
  }),
};

export type SandboxConfig = {
  sandbox: { provider: "local" } | { provider: "e2b"; apiKey: string };
  sandboxIdleMs: number;
  /** A local sandbox is stopped this long after it started, however busy (0 = never). */
  sandboxMaxLifetimeMs: number;
  /** Local sandboxes: each one's own file system (MB, 0 = no quota) and the host space kept free (MB). */
  sandboxDisk: { sizeMb: number; reserveMb: number };
  /**
   * Where local sandboxes' template dependency cache lives (null: `<DATA_DIR>/template-cache`). Processes
   * sharing one folder install each template version once between them (a lock file and atomic renames).
   */
  sandboxTemplateCacheDir: string | null;
  /** Templates whose dependency cache the local provider fills at start-up, in the background. */
  sandboxWarmTemplates: TemplateName[];
  /** An interactive terminal with neither input nor output for this long is closed (0 = never). */
  terminalIdleMs: number;
  /** A delegated cgroup v2 folder for local sandboxes' cgroups (null: `<own cgroup>/app-sandboxes`). */
  sandboxCgroup: string | null;
  /** Local sandboxes one instance runs at once (0 = no cap; null: derived from memory at start-up). */
  maxSandboxesPerHost: number | null;
};

export function sandboxConfig(e: z.infer<z.ZodObject<typeof sandboxEnv>>): SandboxConfig {
  if (e.SANDBOX_PROVIDER === "e2b" && !e.E2B_API_KEY) {
    throw new ConfigError("SANDBOX_PROVIDER=e2b needs E2B_API_KEY.");
  }
  return {
    sandbox: e.SANDBOX_PROVIDER === "e2b" ? { provider: "e2b", apiKey: e.E2B_API_KEY! } : { provider: "local" },
    sandboxIdleMs: e.SANDBOX_IDLE_MINUTES * 60_000,
    sandboxMaxLifetimeMs: e.SANDBOX_MAX_LIFETIME_MINUTES * 60_000,
    sandboxDisk: { sizeMb: e.SANDBOX_DISK_MB, reserveMb: e.SANDBOX_DISK_RESERVE_MB },
    sandboxWarmTemplates: e.SANDBOX_WARM_TEMPLATES,
    sandboxTemplateCacheDir: e.SANDBOX_TEMPLATE_CACHE_DIR ? resolve(e.SANDBOX_TEMPLATE_CACHE_DIR) : null,
    terminalIdleMs: e.TERMINAL_IDLE_TIMEOUT_S * 1000,
    sandboxCgroup: e.SANDBOX_CGROUP ?? null,
    maxSandboxesPerHost: e.MAX_SANDBOXES_PER_HOST === -1 ? null : e.MAX_SANDBOXES_PER_HOST,
  };
}
