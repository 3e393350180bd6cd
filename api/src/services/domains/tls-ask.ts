/**
 * Caddy's on-demand TLS asks `GET /api/tls/ask?domain=` before it requests a certificate: yes (200) only for a
 * name this app serves, so no certificate is ever asked for a name someone merely pointed at the server.
 * Served names: a verified own domain and `<slug>.<SITES_DOMAIN>` of a site with a live deployment. Previews
 * and sites have wildcard certificates (see the Caddyfile), so a preview host is never asked about: 404.
 *
 * @example
 * await mayIssueCertificate(deps, "shop.example.com"); // true once verified
 */
import { normalizeDomain } from "@shared/schemas/domains";
import { isServedHost } from "../../db/domains";
import type { Config } from "../../lib/config";
import type { ServiceContext } from "../context";

export type TlsAskDeps = Pick<ServiceContext, "sql"> & { config: Pick<Config, "sites"> };

export async function mayIssueCertificate(deps: TlsAskDeps, input: string): Promise<boolean> {
  const host = normalizeDomain(input);
  if (!host || host.length > 253 || !/^[a-z0-9.-]+$/.test(host)) return false;
  return isServedHost(deps.sql, host, deps.config.sites.domain);
}
