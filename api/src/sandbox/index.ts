/** Picks the sandbox provider named by SANDBOX_PROVIDER (local bubblewrap by default, or E2B). */
import { join } from "node:path";
import type { Config } from "../lib/config";
import type { Logger } from "../lib/logger";
import { createE2BProvider } from "./e2b";
import { createLocalProvider } from "./local/local-provider";
import { countSandboxStarts } from "./start-metrics";
import type { SandboxProvider } from "./types";

/** Every start is counted for /metrics (start-metrics.ts). `local` lays options over the local provider's (a bench turns the seccomp filter off to measure its cost). */
export function createSandboxProvider(config: Config, logger: Logger, local: { seccomp?: boolean } = {}): SandboxProvider {
  if (config.sandbox.provider === "e2b") return countSandboxStarts(createE2BProvider({ apiKey: config.sandbox.apiKey, logger }));
  return countSandboxStarts(
    createLocalProvider({
      rootDir: join(config.dataDir, "sandboxes"),
      templateCacheDir: config.sandboxTemplateCacheDir ?? join(config.dataDir, "template-cache"),
      idleTimeoutMs: config.sandboxIdleMs,
      maxLifetimeMs: config.sandboxMaxLifetimeMs,
      diskMb: config.sandboxDisk.sizeMb,
      diskReserveMb: config.sandboxDisk.reserveMb,
      cgroupV2Dir: config.sandboxCgroup,
      maxSandboxes: config.maxSandboxesPerHost ?? undefined,
      logger,
      ...local,
    }),
  );
}
