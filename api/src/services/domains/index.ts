/**
 * A project's own domains: added pending with a TXT record to create, verified once `_appbuilder.<domain>`
 * holds that value on the configured resolvers, then served by the site server like `<slug>.<SITES_DOMAIN>`
 * (sites/site-hosts.ts). A name may be asked for by several projects; only one holds it verified. Each change
 * is announced with `site.changed`, so every instance's site server re-reads the verified domains.
 *
 * @example
 * const d = await addDomain(deps, access, "shop.example.com"); // { status: "pending", txtName: "_appbuilder.shop.example.com", … }
 * await verifyDomain(deps, access, "shop.example.com"); // 409 "record not found: …" until the record is there
 */
import { domainShapeProblem, MAX_DOMAINS_PER_PROJECT, normalizeDomain, type SiteDomain, txtNameOf } from "@shared/schemas/domains";
import * as rows from "../../db/domains";
import { findSite } from "../../db/deployments";
import type { Config } from "../../lib/config";
import { badRequest, conflict, notFound } from "../../lib/errors";
import type { ProjectAccess } from "../access";
import { recordActivity } from "../activity";
import type { ServiceContext } from "../context";
import { lookupTxt, resolversLabel } from "./txt-lookup";

export type DomainDeps = ServiceContext & { config: Pick<Config, "sites" | "preview" | "domains" | "publicUrl"> };

const toDomain = (deps: DomainDeps, r: rows.DomainRow): SiteDomain => ({
  domain: r.domain,
  status: r.verifiedAt ? "verified" : "pending",
  txtName: txtNameOf(r.domain),
  txtValue: r.txtValue,
  verifiedAt: r.verifiedAt?.toISOString() ?? null,
  url: `${deps.config.sites.scheme}://${r.domain}`,
});

/** Why this instance refuses the name: one under its sites domain, a bad shape, or one of the app's own hosts. */
function domainProblem(deps: DomainDeps, domain: string): string | null {
  const under = (base: string) => domain === base || domain.endsWith(`.${base}`);
  const sites = deps.config.sites.domain;
  // Before the shape: locally the sites domain is under localhost, and "under SITES_DOMAIN" says more.
  if (under(sites)) return `${domain} is under ${sites}, where published sites get their names: publish with a site name instead.`;
  const shape = domainShapeProblem(domain);
  if (shape) return shape;
  const app = [deps.config.preview.domain, ...(deps.config.publicUrl ? [new URL(deps.config.publicUrl).hostname] : [])];
  const own = app.find((base) => under(base.toLowerCase()));
  return own ? `${domain} is under ${own}, the app's own domain.` : null;
}

async function announce(deps: DomainDeps, projectId: string): Promise<void> {
  const site = await findSite(deps.sql, projectId);
  await deps.events.publishSite({ type: "site.changed", slug: site?.slug ?? "" }).catch(() => {});
}

export async function listDomains(deps: DomainDeps, access: ProjectAccess): Promise<SiteDomain[]> {
  return (await rows.listDomains(deps.sql, access.projectId)).map((r) => toDomain(deps, r));
}

/** 400 for a name that cannot be a site's, 409 when another project holds it verified; the same answer again when already added. */
export async function addDomain(deps: DomainDeps, access: ProjectAccess, input: string): Promise<SiteDomain & { created: boolean }> {
  const domain = normalizeDomain(input);
  const problem = domainProblem(deps, domain);
  if (problem) throw badRequest(problem);
  if (await rows.verifiedElsewhere(deps.sql, domain, access.projectId)) throw conflict(`${domain} is already used by another project.`);
  const txtValue = `appbuilder-verify=${Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url")}`;
  const saved = await rows.insertDomain(deps.sql, { projectId: access.projectId, domain, txtValue, max: MAX_DOMAINS_PER_PROJECT });
  if (saved === "full") throw badRequest(`A project has at most ${MAX_DOMAINS_PER_PROJECT} domains; remove one you no longer use first.`);
  // Adding one already added answers it again: only the first add is news to the project's members.
  if (saved.created) await recordActivity(deps, access, "domain.added", { domain });
  return { ...toDomain(deps, saved.row), created: saved.created };
}

/** Looks the TXT record up and marks the domain verified; 409 "record not found" saying what was looked up where. */
export async function verifyDomain(deps: DomainDeps, access: ProjectAccess, input: string): Promise<SiteDomain> {
  const domain = normalizeDomain(input);
  const row = await rows.findDomain(deps.sql, access.projectId, domain);
  if (!row) throw notFound("Domain");
  if (row.verifiedAt) return toDomain(deps, row);
  if (await rows.verifiedElsewhere(deps.sql, domain, access.projectId)) throw conflict(`${domain} is already used by another project.`);
  const name = txtNameOf(domain);
  const servers = deps.config.domains.dnsServers;
  const found = await lookupTxt(name, servers);
  if (!found.ok || !found.records.includes(row.txtValue)) {
    const saw = !found.ok
      ? found.reason
      : found.records.length
        ? `found only ${found.records.map((r) => JSON.stringify(r)).join(", ")}`
        : "found no TXT record";
    throw conflict(
      `record not found: looked up TXT ${name} on ${resolversLabel(servers)} and ${saw}; expected "${row.txtValue}". DNS changes can take a few minutes to show.`,
    );
  }
  const verified = await rows.markVerified(deps.sql, access.projectId, domain);
  if (verified === "taken") throw conflict(`${domain} is already used by another project.`);
  if (!verified) throw notFound("Domain");
  await announce(deps, access.projectId);
  await recordActivity(deps, access, "domain.verified", { domain });
  return toDomain(deps, verified);
}

/** What the site server reads (sites/site-hosts.ts): every verified domain with its project's site name (null: none). */
export const verifiedDomainSites = (ctx: Pick<ServiceContext, "sql">) => rows.verifiedDomainSlugs(ctx.sql);

export async function removeDomain(deps: DomainDeps, access: ProjectAccess, input: string): Promise<void> {
  const domain = normalizeDomain(input);
  if (!(await rows.deleteDomain(deps.sql, access.projectId, domain))) throw notFound("Domain");
  await announce(deps, access.projectId);
  await recordActivity(deps, access, "domain.removed", { domain });
}
