/**
 * Configuration, parsed once from the environment with zod. Nothing set gives the embedded defaults of
 * the design notes; each variable switches one part to its production form. A bad or contradictory setting
 * throws a ConfigError naming the variable, and start-up stops there.
 *
 * Each area (server, database, storage, sandbox, model, agent, preview, sites, limits, auth, admin) lives in its own
 * file with its variables and the part of `Config` it builds; this file joins them into one object.
 *
 * @example
 * const config = loadConfig(); // process.env
 * const test = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "warn" });
 */
import { z } from "zod";
import { adminConfig, adminEnv, type AdminConfig } from "./admin";
import { agentConfig, agentEnv, type AgentConfig } from "./agent";
import { appDatabasesConfig, appDatabasesEnv, type AppDatabasesSection } from "./app-databases";
import { authConfig, authEnv, type AuthConfig } from "./auth";
import { domainsConfig, domainsEnv, type DomainsConfig } from "./domains";
import { gitConfig, gitEnv, type GitConfig } from "./git";
import { instancesConfig, instancesEnv, type InstancesConfig } from "./instances";
import { databaseConfig, databaseEnv, type DatabaseConfig } from "./database";
import { limitsConfig, limitsEnv, type LimitsConfig } from "./limits";
import { defaultModelOf, modelConfig, modelEnv, type ModelConfig } from "./model";
import { previewConfig, previewEnv, type PreviewConfig } from "./preview";
import { sandboxConfig, sandboxEnv, type SandboxConfig } from "./sandbox";
import { secretsConfig, secretsEnv, type SecretsConfig } from "./secrets";
import { serverConfig, serverEnv, type ServerConfig } from "./server";
import { sitesConfig, sitesEnv, type SitesConfig } from "./sites";
import { storageConfig, storageEnv, type StorageConfig } from "./storage";
import { ConfigError } from "./values";

export { ConfigError } from "./values";
export { describeConfig, redactUrl } from "./describe";
export { isKnownVisionModel, type ModelPrice } from "./model";
export type { AuthConfig } from "./auth";
export type { AppDatabasesConfig } from "./app-databases";
export type { SecretsConfig } from "./secrets";

const envSchema = z.object({
  ...serverEnv,
  ...databaseEnv,
  ...storageEnv,
  ...sandboxEnv,
  ...modelEnv,
  ...agentEnv,
  ...previewEnv,
  ...sitesEnv,
  ...limitsEnv,
  ...authEnv,
  ...appDatabasesEnv,
  ...secretsEnv,
  ...gitEnv,
  ...domainsEnv,
  ...adminEnv,
  ...instancesEnv,
});

export type Config = ServerConfig &
  SandboxConfig &
  ModelConfig &
  AgentConfig &
  LimitsConfig &
  AppDatabasesSection &
  GitConfig &
  DomainsConfig &
  AdminConfig &
  InstancesConfig & {
    database: DatabaseConfig;
    storage: StorageConfig;
    preview: PreviewConfig;
    sites: SitesConfig;
    auth: AuthConfig;
    secrets: SecretsConfig;
  };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const server = serverConfig(e);
  // The contradiction checks run in this order (storage, sandbox, model, sites, secrets, auth): the first one found is reported.
  const storage = storageConfig(e, server.dataDir);
  const sandbox = sandboxConfig(e);
  const database = databaseConfig(e, server.dataDir);
  const model = modelConfig(e);
  const preview = previewConfig(e.PREVIEW_DOMAIN, server.publicUrl, server.port);
  const sites = sitesConfig(e, { publicUrl: server.publicUrl, port: server.port, previewDomain: preview.domain });
  const secrets = secretsConfig(e, server.dataDir, database.kind === "postgres");
  return {
    ...server,
    database,
    storage,
    ...sandbox,
    ...model,
    ...agentConfig(e, defaultModelOf(e)),
    preview,
    sites,
    auth: authConfig(e, server.host),
    ...limitsConfig(e),
    ...appDatabasesConfig(e, database, server.dataDir),
    secrets,
    ...gitConfig(e),
    ...domainsConfig(e),
    ...adminConfig(e),
    ...instancesConfig(e, { sharedDatabase: database.kind === "postgres", localSandboxes: sandbox.sandbox.provider === "local" }),
  };
}
