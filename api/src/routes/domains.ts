/**
 * /api/projects/{id}/domains: a project's own domains. POST `{domain}` adds one pending with the TXT record to
 * create; POST `/{domain}/verify` looks that record up and marks it verified; GET lists; DELETE `/{domain}`
 * removes one. Managing domains is an editor's, like publishing; listing is a viewer's. Access is checked
 * before the body is read, so a stranger's bad body is a 404 too.
 *
 * GET /api/tls/ask?domain= (public, for Caddy's on-demand TLS): 200 for a name this app serves, 404 otherwise.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { badRequest } from "../lib/errors";
import { jsonBody } from "../lib/validate";
import { projectAccess } from "../services/access";
import * as domains from "../services/domains/index";
import { mayIssueCertificate } from "../services/domains/tls-ask";

export const domainRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/domains", async (c) => c.json(await domains.listDomains(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))))
    .post("/:id/domains", jsonBody<{ domain: string }>(), async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
      const body = (await c.req.json().catch(() => null)) as { domain?: unknown } | null;
      if (typeof body?.domain !== "string" || body.domain.length > 300) throw badRequest('Send the domain as JSON: {"domain": "shop.example.com"}.');
      const { created, ...domain } = await domains.addDomain(deps, access, body.domain);
      return c.json(domain, created ? 201 : 200);
    })
    .post("/:id/domains/:domain/verify", async (c) =>
      c.json(await domains.verifyDomain(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"), c.req.param("domain"))),
    )
    .delete("/:id/domains/:domain", async (c) => {
      await domains.removeDomain(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"), c.req.param("domain"));
      return c.body(null, 204);
    });

export const tlsAskRoutes = (deps: AppDeps) =>
  new Hono().get("/ask", async (c) => {
    const ok = await mayIssueCertificate(deps, c.req.query("domain") ?? "");
    return ok ? c.text("ok") : c.text("unknown name", 404);
  });
