/**
 * Caddy's on-demand TLS asks `GET /api/tls/ask?domain=` before it requests a certificate: yes (200) only for a
 * name this app serves, so no certificate is ever asked for a name someone merely pointed at the server.
 * Served names: a verified own domain, `<slug>.<SITES_DOMAIN>` of a site with a live deployment, and (Caddy
 * 2.6 has one `ask` for every on-demand site) a preview host of a sandbox that belongs to a project.
 *
 * @example
 * await mayIssueCertificate(deps, "shop.example.com"); // true once verified
 */
import { normalizeDomain } from "@shared/schemas/domains";
import { isServedHost } from "../../db/domains";
import type { Config } from "../../lib/config";
import type { ServiceContext } from "../context";

export type TlsAskDeps = Pick<ServiceContext, "sql"> & {
  config: Pick<Config, "sites" | "preview">;
  isProjectSandbox?: (sandboxId: string) => Promise<boolean>;
};

export async function mayIssueCertificate(deps: TlsAskDeps, input: string): Promise<boolean> {
  const host = normalizeDomain(input);
  if (!host || host.length > 253 || !/^[a-z0-9.-]+$/.test(host)) return false;
  if (await isServedHost(deps.sql, host, deps.config.sites.domain)) return true;
  const preview = deps.config.preview.domain.toLowerCase();
  const m = host.endsWith(`.${preview}`) ? /^\d{2,5}-([a-z0-9]{8,64})$/.exec(host.slice(0, -preview.length - 1)) : null;
  return Boolean(m && deps.isProjectSandbox && (await deps.isProjectSandbox(m[1]!)));
}
