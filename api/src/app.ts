/**
 * createApp(deps): the whole HTTP API as one Hono app, built from its dependencies so tests build it
 * with real local parts. Errors from anywhere become `{ error, code }` in one place (onError).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import type { AppDeps, AppEnv } from "./app-env";
import { requireAdmin, requireAuth } from "./auth/middleware";
import { toAppError } from "./lib/classify-error";
import { AppError, notFound, tooLarge } from "./lib/errors";
import { gauge, instanceLabel } from "./lib/metrics";
import { redactPath } from "./lib/redact-path";
import { recordRequests } from "./middleware/metrics";
import { createRateLimits } from "./middleware/rate-limit";
import { requestLog } from "./middleware/request-log";
import { securityHeaders } from "./middleware/security-headers";
import { adminRoutes } from "./routes/admin";
import { authRoutes, meRoutes } from "./routes/auth";
import { chatRoutes } from "./routes/chat";
import { databaseRoutes } from "./routes/database";
import { domainRoutes, tlsAskRoutes } from "./routes/domains";
import { fileRoutes } from "./routes/files";
import { memberRoutes } from "./routes/members";
import { messageRoutes } from "./routes/messages";
import { projectModelRoutes, usageRoutes } from "./routes/models";
import { projectZipRoutes } from "./routes/project-zip";
import { projectRoutes } from "./routes/projects";
import { liveSiteRoutes, publishRoutes } from "./routes/publish";
import { sandboxRoutes } from "./routes/sandbox";
import { sandboxProcessRoutes } from "./routes/sandbox-processes";
import { secretRoutes } from "./routes/secrets";
import { previewTicketRoutes, shareLinkRoutes, shareOpenRoutes } from "./routes/share-links";
import { gitRoutes } from "./routes/git";
import { systemRoutes } from "./routes/system";
import { uploadRoutes } from "./routes/uploads";
import { projectImportRoutes, versionRoutes } from "./routes/versions";
import { isAdmin } from "./services/admin";
import { checkReadiness } from "./services/readiness";
import { createUserGate } from "./services/users";
import { serveSpa } from "./static";
import { forwardToOwner } from "./middleware/forward-to-owner";
import { localAppHost } from "./middleware/local-app-host";

export function createApp(deps: AppDeps) {
  const { runs } = deps;
  gauge("app_agent_runs_active", "Agent runs working in this process.", () => runs.activeCount());
  // What /api/ready would answer now (1 ready, 0 draining or a dependency down): the same checks, run per scrape.
  gauge("app_ready", "1 when this instance would answer /api/ready with 200, else 0 (draining, database or storage down).", async () =>
    deps.drain.draining ? 0 : (await checkReadiness({ ...deps, hostLimits: deps.sandboxes.hostLimits() })).status === "ready" ? 1 : 0,
  );
  gauge("app_sandboxes_active", "Project sandboxes attached in this process, by instance (INSTANCE_ID).", () => deps.sandboxes.activeCount(), instanceLabel);
  const api = apiRoutes(deps);

  const app = new Hono<AppEnv>();
  // Request counts go to the process's metrics, served on METRICS_PORT (metrics-server.ts), never here.
  app.use("*", recordRequests(), requestLog(deps.logger), securityHeaders(deps.config, deps.webDist), localAppHost(deps.config));
  // JSON answers over 1 KB are gzipped for clients that ask; event streams and images are left alone.
  app.use("/api/*", compress({ threshold: 1024 }));
  app.route("/api", api);
  app.all("/api/*", () => {
    throw notFound("API route");
  });
  // A plain 404, not the SPA's page: scrapers pointed at the public port by mistake get a clear answer, and
  // nothing here can be taken for metrics (they are on METRICS_PORT only).
  app.all("/metrics", () => {
    throw new AppError(404, "not_found", "Not found: metrics are served on METRICS_PORT, not on this port.");
  });
  if (deps.webDist) app.get("*", serveSpa(deps.webDist));

  app.notFound((c) => c.json({ error: "Not found", code: "not_found" }, 404));
  app.onError((error, c) => {
    const appError = toAppError(error);
    if (appError.status >= 500) {
      deps.logger.error(appError.message, { path: redactPath(c.req.path), method: c.req.method, cause: String(appError.cause ?? error) });
    }
    return c.json({ error: appError.message, code: appError.code }, appError.status, appError.headers);
  });
  return app;
}

/**
 * Every route under `/api`, as one chained Hono app: its type (`ApiRoutes`) is what the web's typed client
 * (`web/src/api/endpoints.ts`, `hc<ApiRoutes>`) and the route tests' client are checked against.
 */
function apiRoutes(deps: AppDeps) {
  // Shared with the sockets when start-parts made it; a test app gets its own.
  const gate = deps.userGate ?? createUserGate(deps);
  const auth = requireAuth(deps.verifyToken, gate.admit);
  const admin = requireAdmin(deps.verifyToken, (caller) => isAdmin(deps.config, caller), gate.admit);
  const jsonBodyLimit = bodyLimit({
    maxSize: deps.config.limits.maxBodyBytes,
    onError: () => {
      throw tooLarge(`The request body is larger than ${Math.round(deps.config.limits.maxBodyBytes / 1048576)} MB.`);
    },
  });

  const limits = createRateLimits(deps);

  return (
    new Hono<AppEnv>()
      .route("/", systemRoutes(deps))
      .route("/tls", tlsAskRoutes(deps))
      .route("/upload", uploadRoutes(deps, auth, limits.uploads))
      .route("/projects", projectImportRoutes(deps, auth, limits.projects))
      // A share link's URL: no sign-in, its token is the access (to the preview host and nothing else).
      .route("/share", shareOpenRoutes(deps))
      .use("/auth/*", auth, jsonBodyLimit)
      .use("/me", auth)
      .use("/admin/*", admin, jsonBodyLimit)
      .use("/projects/*", auth, jsonBodyLimit)
      .use("/messages/*", auth, jsonBodyLimit)
      .use("/files/*", auth, jsonBodyLimit)
      .use("/sandbox/*", auth, jsonBodyLimit)
      .use("/usage/*", auth)
      .use("/sites", auth)
      // Requests that use a running local sandbox are served by its owning instance (before any rate limit: counted there once).
      .use("/sandbox/:projectId/*", deps.instances ? forwardToOwner(deps.instances) : (_c, next) => next())
      .use("/messages/stream", limits.chat)
      .use("/sandbox/:projectId/shell", limits.shell)
      // Every sandbox made (a recreate, or a first start by any route, the terminal and agent runs included) is
      // counted by the sandbox lifecycle where it is made; these two also count when the sandbox already runs.
      .use("/sandbox/:projectId/template", limits.sandbox)
      .use("/sandbox/:projectId/run-workflow", limits.sandbox)
      // Every new project (each may get a sandbox).
      .use("/projects", limits.projects)
      .use("/files/:projectId/download", limits.downloads)
      .use("/files/:projectId/download.zip", limits.downloads)
      .route("/auth", authRoutes(deps))
      .route("/me", meRoutes(deps))
      .route("/admin", adminRoutes(deps, gate))
      .route("/projects", projectRoutes(deps))
      .route("/projects", versionRoutes(deps))
      .route("/projects", projectModelRoutes(deps))
      .route("/projects", databaseRoutes(deps))
      .route("/usage", usageRoutes(deps))
      .route("/projects", publishRoutes(deps, limits.publish))
      .route("/projects", secretRoutes(deps))
      .route("/projects", gitRoutes(deps))
      .route("/projects", memberRoutes(deps))
      .route("/projects", domainRoutes(deps))
      .route("/projects", shareLinkRoutes(deps))
      .route("/sites", liveSiteRoutes(deps))
      .route("/messages", messageRoutes(deps))
      .route("/messages", chatRoutes(deps))
      .route("/files", projectZipRoutes(deps))
      .route("/files", fileRoutes(deps))
      .route("/sandbox", sandboxRoutes(deps))
      .route("/sandbox", sandboxProcessRoutes(deps))
      .route("/sandbox", previewTicketRoutes(deps))
  );
}

/** The API's routes, paths, parameters and bodies, for Hono's typed client; a type only, never code. */
export type ApiRoutes = ReturnType<typeof apiRoutes>;
