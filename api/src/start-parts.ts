/**
 * Starts every part the configuration names (database, storage, sign-in) and returns the ready app.
 * Used by the `bun run start` entry point and by tests that need the whole server.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RunManager } from "./agent/runs";
import { createApp } from "./app";
import type { AppDeps } from "./app-env";
import { startAuthEmulator } from "./auth/emulator";
import { createPreviewTickets } from "./auth/preview-tickets";
import { createTokenVerifier } from "./auth/verify-token";
import { createCoreServices } from "./core-services";
import { connectDb, type Db } from "./db/client";
import { migrate } from "./db/migrate";
import { getOrCreateSecret } from "./db/secrets";
import type { Config } from "./lib/config";
import type { Logger } from "./lib/logger";
import { gauge } from "./lib/metrics";
import { toPublicConfig } from "./public-config";
import { createMemoryBus } from "./events/memory-bus";
import { createPostgresBus } from "./events/postgres-bus";
import { createPreviewProxy, type PreviewElsewhere, type PreviewProxy } from "./realtime/preview-proxy";
import { appOriginsOf } from "./realtime/preview-reporter/served-script";
import { createOwnerSockets, type OwnerSockets } from "./realtime/owner-socket";
import { createInstanceAuth, forwardToInstance, type InstanceAuth } from "./lib/instance-auth";
import { createSandboxOwners, type SandboxOwners } from "./services/sandboxes/owners";
import { previewAfterOwnerGone } from "./services/sandboxes/preview-recovery";
import { PTY_PROTOCOL } from "@shared/events/pty-frames";
import { createPtySocket, type PtySocket } from "./realtime/pty-socket";
import { createWsHub, type WsHub } from "./realtime/ws-hub";
import { createServerProxy, type ServerProxy } from "./sites/server-proxy";
import { createSiteServer, type SiteServer } from "./sites/site-server";
import { createSandboxProvider } from "./sandbox/index";
import { previewAllowed } from "./services/access";
import { createAppDatabases } from "./services/app-databases";
import { createTerminalSessions } from "./services/sandboxes/terminals";
import { heartbeatFor, startAbandonedRunSweeper } from "./services/chat-runs";
import { createImageSigner } from "./services/images";
import { createUserGate } from "./services/users";
import { startUploadSweep } from "./services/upload-sweep";
import { reportFromPreview, reportViteError, startProblemsWatch } from "./services/problems";
import { startVersionRetention } from "./services/versions/retention";
import { guardStore } from "./storage/guard";
import { createObjectStore } from "./storage/index";

export type RunningParts = {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  hub: WsHub;
  preview: PreviewProxy;
  /** The interactive terminal's WebSocket. */
  pty: PtySocket;
  /** INSTANCE_SECRET's check (every request that says it is internal) and the sockets bridged to other instances. */
  instances: { auth: InstanceAuth; sockets: OwnerSockets };
  sites: SiteServer;
  /** Published servers' requests and WebSockets (the site server hands them here). */
  serverProxy: ServerProxy;
  runs: RunManager;
  close(): Promise<void>;
};

const DEFAULT_WEB_DIST = resolve(import.meta.dir, "../../web/dist");

export async function startParts(
  config: Config,
  logger: Logger,
  options: { webDist?: string | null; localSandbox?: { seccomp?: boolean } } = {},
): Promise<RunningParts> {
  const closers: (() => Promise<unknown>)[] = [];
  try {
    // Traverse-only for others: sandbox users must reach their folders under DATA_DIR/sandboxes, but nobody
    // else may list it; each part below is 0700 (database, objects, emulator) or closes itself off.
    if (!existsSync(config.dataDir)) mkdirSync(config.dataDir, { recursive: true, mode: 0o711 });
    const emulator =
      config.auth.mode === "emulator" && config.auth.startLocalEmulator
        ? startAuthEmulator({
            projectId: config.auth.projectId,
            host: "127.0.0.1",
            port: Number(config.auth.emulatorHost.split(":").pop()),
            dataDir: join(config.dataDir, "auth-emulator"),
            log: logger,
          })
        : null;

    const db = await connectWithRetry(config, logger);
    closers.push(() => db.close());
    // Waiting on another instance's migration lock is no stall: the per-query bound applies once they are done.
    db.setQueryTimeout(0);
    await migrate(db.sql, { lock: db.kind === "postgres" });
    db.setQueryTimeout(config.database.queryTimeoutMs);

    const store = guardStore(createObjectStore(config.storage));
    await store.ping();
    const signer = createImageSigner(await getOrCreateSecret(db.sql, "image_url_key"));
    // In the database like the image key, so every instance sharing it opens the others' preview cookies.
    const previewTickets = createPreviewTickets(await getOrCreateSecret(db.sql, "preview_ticket_key"));
    const appDatabases = createAppDatabases({ config: config.appDatabases, sql: db.sql, logger });
    closers.push(() => appDatabases.close());
    // Embedded: the template every project database is copied from takes seconds once; build it now, not on first use.
    appDatabases.warm().catch((error) => logger.warn("project database template not built", { error: String(error) }));
    // Production databases (issue 22): beside development's, made by a project's first server publish.
    const productionDatabases = createAppDatabases({ config: config.appDatabases, sql: db.sql, logger, environment: "production" });
    closers.push(() => productionDatabases.close());

    // LISTEN/NOTIFY does not cross PGlite's socket, and embedded mode is one instance anyway.
    const events = db.kind === "postgres" ? await createPostgresBus(db.sql, logger) : createMemoryBus();
    closers.push(() => events.close());

    if (emulator) {
      const started = await emulator;
      closers.push(() => started.stop());
    }

    const webDist = options.webDist !== undefined ? options.webDist : existsSync(join(DEFAULT_WEB_DIST, "index.html")) ? DEFAULT_WEB_DIST : null;
    if (webDist === null && options.webDist === undefined) {
      logger.warn("web/dist not found: serving the API only. Run `bun run build` to serve the web app too.");
    }

    const provider = createSandboxProvider(config, logger, options.localSandbox);
    // Built here (not inside the app) so shutdown can save running answers before the database closes.
    const agent = { staleRunMs: config.runStaleMs, heartbeatMs: heartbeatFor(config.runStaleMs) };
    const { drain, sandboxes, secrets, git, servers, pageBrowser, runs } = createCoreServices({
      config,
      sql: db.sql,
      store,
      logger,
      events,
      provider,
      signer,
      appDatabases,
      productionDatabases,
      agent,
    });
    // Each closed at the point it was once built, so shutdown keeps its order (runs first, sandboxes last).
    closers.push(() => sandboxes.shutdown());
    const verifyToken = createTokenVerifier(config.auth);
    // One signed-in check for requests and sockets alike: a disabled account is refused by each.
    const userGate = createUserGate({ sql: db.sql, events });
    closers.push(async () => userGate.close());
    const hub = createWsHub({ sql: db.sql, store, logger, events, verifyToken, admit: userGate.admit });
    closers.push(async () => hub.close());
    const services = { sql: db.sql, store, logger, events, appDatabases, productionDatabases };
    // Local sandboxes run where they started: requests about one that land elsewhere are forwarded to it.
    const instanceAuth = createInstanceAuth(config.instances.secret, logger);
    const owners = createSandboxOwners({ sql: db.sql, logger, enabled: instanceAuth.enabled && provider.kind === "local" });
    const ownerSockets = createOwnerSockets(instanceAuth);
    const previewElsewhere = previewOnOwner({
      auth: instanceAuth,
      logger,
      owners,
      sockets: ownerSockets,
      recover: (grant, gone, path) => previewAfterOwnerGone({ ...services, config, previewTickets, sandboxes }, grant, gone, path),
    });
    const preview = createPreviewProxy({
      elsewhere: previewElsewhere,
      provider,
      domain: config.preview.domain,
      logger,
      tickets: previewTickets,
      // Checked in the database on every request (no cache): removals and revocations count at once everywhere.
      allowed: (grant, sandboxId) => previewAllowed({ sql: db.sql }, grant, sandboxId),
      // Sockets already open through a grant close when it ends (removal, revocation), on every instance.
      events,
      secure: config.preview.scheme === "https",
      appOrigins: appOriginsOf(config.publicUrl),
      problems: {
        report: (sandboxId, reports) => reportFromPreview(services, sandboxId, reports),
        viteError: (sandboxId, err) => reportViteError(services, sandboxId, err),
      },
    });
    closers.push(async () => preview.close());
    const terminals = createTerminalSessions({ sandboxes, logger, idleMs: config.terminalIdleMs });
    const pty = createPtySocket({
      sql: db.sql,
      store,
      logger,
      events,
      verifyToken,
      terminals,
      admit: userGate.admit,
      forward: async (req, server, projectId) => {
        if (instanceAuth.isInternal(req)) return null;
        const owner = await owners.find({ projectId });
        if (owner.kind !== "remote") return null;
        return ownerSockets.upgrade(req, server, owner.url, PTY_PROTOCOL, () => owners.gone(owner.url));
      },
    });
    closers.push(async () => (pty.close(), terminals.closeAll()));
    // Published servers (issue 22) are reached through the site server.
    closers.push(() => servers.close());
    const serverProxy = createServerProxy({ runtime: servers, logger });
    const sites = createSiteServer({ sql: db.sql, store, events, logger, domain: config.sites.domain, scheme: config.sites.scheme, servers: serverProxy });
    closers.push(async () => sites.close());
    // A request on a project's own domain must find its site from the first request on, not reach the app.
    await sites.ready;
    const stopProblems = startProblemsWatch(services);
    closers.push(async () => stopProblems());
    gauge("app_websocket_clients", "File-event WebSocket clients connected to this process.", () => hub.clientCount());
    gauge("app_db_pool_max", "Connections the app's database pool may open (DATABASE_POOL_MAX).", () => db.pool.max);
    gauge("app_db_connections_open", "Database connections open in this process's pool (LISTEN included).", () => db.pool.open);
    gauge("app_db_connections_busy", "Database connections with a query under way (the rest are idle).", () => db.pool.busy);

    // Closed after the runs on shutdown.
    closers.push(() => pageBrowser.close());
    void git
      .sweepCaches()
      .then((removed) => removed > 0 && logger.info("git caches of gone projects removed", { removed }))
      .catch((error) => logger.warn("git cache sweep failed", { error: String(error) }));
    closers.push(() => runs.shutdown());
    const deps: AppDeps = {
      config,
      sql: db.sql,
      store,
      logger,
      events,
      signer,
      previewTickets,
      verifyToken,
      publicConfig: toPublicConfig(config),
      drain,
      sandboxes,
      sandboxSync: sandboxes.sync,
      appDatabases,
      productionDatabases,
      servers,
      secrets,
      git,
      webDist,
      runs,
      userGate,
      instances: { auth: instanceAuth, owners },
    };
    const stopSweeper = startAbandonedRunSweeper({ sql: db.sql, logger, staleRunMs: config.runStaleMs });
    closers.push(async () => stopSweeper());
    const stopRetention = startVersionRetention(deps, { keepDays: config.versionsKeepDays });
    closers.push(async () => stopRetention());
    const stopUploadSweep = startUploadSweep(deps);
    closers.push(async () => stopUploadSweep());
    return {
      app: createApp(deps),
      deps,
      hub,
      preview,
      pty,
      instances: { auth: instanceAuth, sockets: ownerSockets },
      sites,
      serverProxy,
      runs,
      close: async () => {
        for (const close of closers.reverse()) await close().catch((e) => logger.warn("shutdown step failed", { error: String(e) }));
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => {});
    throw error;
  }
}

/**
 * A preview whose sandbox does not run here: forwarded to the instance that owns it (HTTP and WebSocket
 * alike), or, when that instance is gone, made again here and the browser sent to its new host.
 */
function previewOnOwner(deps: {
  auth: InstanceAuth;
  logger: Logger;
  owners: SandboxOwners;
  sockets: OwnerSockets;
  recover: (grant: Parameters<PreviewElsewhere>[3], gone: { projectId: string; ownerId: string }, path: string) => Promise<string | null>;
}): PreviewElsewhere {
  return async (req, server, sandboxId, grant) => {
    if (deps.auth.isInternal(req)) return null;
    let owner = await deps.owners.find({ sandboxId });
    if (owner.kind === "remote") {
      const { url } = owner;
      if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
        const protocol = req.headers.get("sec-websocket-protocol")?.split(",")[0]?.trim() || undefined;
        return { answer: deps.sockets.upgrade(req, server, url, protocol, () => deps.owners.gone(url)) };
      }
      const answer = await forwardToInstance(req, url, deps.auth);
      if (answer) return { answer };
      deps.owners.gone(url);
      owner = await deps.owners.find({ sandboxId });
    }
    if (owner.kind !== "gone") return null;
    const { pathname, search } = new URL(req.url);
    // A refused start (the owner's start limit, a full host) leaves the "stopped" page, whose Recreate says why.
    const location = await deps.recover(grant, owner, `${pathname}${search}`).catch((error: unknown) => {
      deps.logger.warn("could not make a preview's sandbox again after its instance went away", { sandboxId, error: String(error) });
      return null;
    });
    if (!location) return null;
    return { answer: new Response(null, { status: 302, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } }) };
  };
}

/** At start-up a database that is still coming up (e.g. in docker-compose) gets a few tries. */
async function connectWithRetry(config: Config, logger: Logger): Promise<Db> {
  const deadline = Date.now() + 30_000;
  for (let attempt = 1; ; attempt++) {
    const db = await connectDb(config.database);
    try {
      await db.sql`select 1`;
      return db;
    } catch (error) {
      await db.close().catch(() => {});
      if (Date.now() > deadline) {
        throw new Error(`Cannot reach the database (${String(error)}). Check DATABASE_URL and that the server is running.`);
      }
      logger.warn("database not reachable yet; retrying", { attempt, error: String(error) });
      await Bun.sleep(Math.min(1000 * attempt, 5000));
    }
  }
}
