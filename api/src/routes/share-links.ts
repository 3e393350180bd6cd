/**
 * Preview access over HTTP: a project's share links (GET/POST /api/projects/{id}/share-links, DELETE
 * …/share-links/{linkId}; editors and the owner), the preview ticket the SPA asks for before it frames a
 * preview (POST /api/sandbox/{projectId}/preview-ticket; any member), and what a link's URL opens
 * (GET /api/share/{token}; no sign-in: the token is the access, and it only ever leads to the preview host).
 */
import type { CreateShareLink, PreviewTicket } from "@shared/schemas/share-links";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import type { AuthEnv } from "../auth/middleware";
import { AppError } from "../lib/errors";
import { jsonBody } from "../lib/validate";
import { projectAccess } from "../services/access";
import { enterUrl, proxiedPreviewHost } from "../services/sandboxes/preview-url";
import * as links from "../services/share-links";

const body = (c: { req: { json(): Promise<unknown> } }) => c.req.json().catch(() => null);

/** Where a link's URL points: PUBLIC_URL when set, else the origin the request came in on. */
const publicOrigin = (deps: AppDeps, requestUrl: string) => deps.config.publicUrl ?? new URL(requestUrl).origin;

export const shareLinkRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/share-links", async (c) => c.json(await links.listShareLinks(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"))))
    .post("/:id/share-links", jsonBody<CreateShareLink>(), async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
      return c.json(await links.createShareLink(deps, access, await body(c), publicOrigin(deps, c.req.url)), 201);
    })
    .delete("/:id/share-links/:linkId", async (c) => {
      await links.revokeShareLink(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"), c.req.param("linkId"));
      return c.body(null, 204);
    });

export const previewTicketRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post("/:projectId/preview-ticket", async (c) => {
    const access = await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view");
    const host = proxiedPreviewHost(deps.config.preview, await deps.sandboxes.url(access));
    if (!host) return c.json({ origin: null, enterUrl: null } satisfies PreviewTicket);
    const ticket = await deps.previewTickets.ticket({ projectId: access.projectId, host, userId: access.userId });
    const url = enterUrl(deps.config.preview, host, ticket);
    return c.json({ origin: new URL(url).origin, enterUrl: url } satisfies PreviewTicket);
  });

const GONE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Link not found</title><body style="font-family:system-ui;display:grid;place-items:center;height:100vh;margin:0"><p>This link does not open anything. It may have expired or been revoked.</p>';

/** No sign-in here: the token is checked, the sandbox started if it sleeps, and the browser sent to the preview. */
export const shareOpenRoutes = (deps: AppDeps) =>
  new Hono<AuthEnv>().get("/:token", async (c) => {
    c.header("cache-control", "no-store");
    c.header("referrer-policy", "no-referrer");
    try {
      const grant = await links.openShareLink(deps, c.req.param("token"), (url) => proxiedPreviewHost(deps.config.preview, url));
      const ticket = await deps.previewTickets.ticket(grant);
      return c.redirect(`${enterUrl(deps.config.preview, grant.host, ticket)}&next=%2F`, 302);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return c.html(GONE_PAGE, 404);
      throw error;
    }
  });
