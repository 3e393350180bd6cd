/**
 * The services behind the API that the real server and the test app wire alike: the drain, project sandboxes,
 * secrets, git, published servers, the page browser and the agent's runs (relayed between instances). One
 * builder, so a service the agent needs (the project databases, say) cannot reach one and miss the other.
 * The caller owns what is around it (database, store, bus, sockets) and closes what this returns.
 *
 * @example
 * const core = createCoreServices({ config, sql, store, logger, events, provider, signer, appDatabases });
 * const app = createApp({ ...core, verifyToken, previewTickets, publicConfig, webDist: null });
 * await core.runs.shutdown(); await core.pageBrowser.close(); await core.servers.close(); await core.sandboxes.shutdown();
 */
import type { AgentOptions } from "./agent/runs";
import { createAgentRuns } from "./compose";
import type { Config } from "./lib/config";
import { createDrain } from "./lib/drain";
import type { Logger } from "./lib/logger";
import type { SandboxProvider } from "./sandbox/types";
import type { AppDatabases } from "./services/app-databases";
import { createPageBrowser } from "./services/chat-runs/page-browser";
import { relayRuns } from "./services/chat-runs/run-relay";
import type { ServiceContext } from "./services/context";
import { createGitService } from "./services/git";
import type { ImageSigner } from "./services/images";
import { createProjectSandboxes } from "./services/sandboxes";
import { createProjectSecrets, secretBoxFor } from "./services/secrets";
import { createServerRuntime } from "./services/server-deployments/runtime";

export type CoreServicesInput = Pick<ServiceContext, "sql" | "store" | "logger" | "events"> & {
  config: Config;
  provider: SandboxProvider;
  signer: ImageSigner;
  /** Each project's development database; absent: none on this process (the agent's database tools say so). */
  appDatabases?: AppDatabases;
  /** Production databases, made by a project's first server publish. */
  productionDatabases?: AppDatabases;
  agent?: AgentOptions;
  /** Where the sandboxes and secrets log, when not `logger` (the test app keeps them silent). */
  sandboxLogger?: Logger;
  /** How long the page browser idles before it closes; its own default when absent. */
  pageBrowserIdleMs?: number;
};

export function createCoreServices(o: CoreServicesInput) {
  const { config, sql, store, logger, events, provider, appDatabases, productionDatabases } = o;
  const quiet = o.sandboxLogger ?? logger;
  const drain = createDrain();
  const sandboxes = createProjectSandboxes({ sql, store, logger: quiet, events, provider, config, appDatabases, drain });
  const box = secretBoxFor(config.secrets);
  const secrets = createProjectSecrets({ sql, store, logger: quiet, events, box, env: sandboxes.env });
  const git = createGitService({ sql, store, logger, events, config, sandboxSync: sandboxes.sync, box, sandboxes });
  // Published servers (issue 22): each in a sandbox of its own, asleep when idle, started when first asked for.
  const servers = createServerRuntime({
    provider,
    store,
    logger,
    events,
    productionDatabases,
    env: sandboxes.env,
    templateCache: sandboxes.templateCache,
    buildTimeoutMs: config.sites.buildTimeoutMs,
    startTimeoutMs: config.sites.startTimeoutMs,
    idleMs: config.sites.idleMs,
    maxPerUser: config.sites.maxLiveServersPerUser,
  });
  // The machine's Chromium (CHECK_BROWSER_PATH=off turns it off), started by the first check that runs a page
  // and closed when idle.
  const pageBrowser = createPageBrowser({ setting: config.checkBrowser, logger, idleMs: o.pageBrowserIdleMs });
  const services = {
    config,
    sql,
    store,
    logger,
    events,
    sandboxes,
    sandboxSync: sandboxes.sync,
    secrets,
    git,
    signer: o.signer,
    appDatabases,
    drain,
    pageBrowser,
    productionDatabases,
    servers,
  };
  // Several instances: a reattach or Stop that reaches another instance is relayed to this one over the bus.
  const runs = relayRuns(createAgentRuns({ ...services, agent: o.agent }), services);
  return { ...services, runs };
}
