/**
 * Which site a request's Host names: `<slug>.<SITES_DOMAIN>`, or a project's own verified domain, whose site
 * is its project's. The one Host→site lookup of the site server (and of anything else that serves sites by
 * host). Answered from memory, without a query, since every request to the app passes through it first: the
 * verified domains are read at start, again whenever the bus says a site changed (a publish, an unpublish, a
 * domain verified or removed all announce `site.changed`), and again after `ttlMs` should a notice be lost.
 *
 * @example
 * const hosts = createSiteHosts({ sql, events, logger, domain: "sites.localhost" });
 * await hosts.ready;
 * hosts.slugOf("shop.example.com"); // "shop" (its project's site), "" (no site there), or null (not a site host)
 */
import type { Sql } from "../db/client";
import type { EventBus } from "../events/types";
import type { Logger } from "../lib/logger";
import { verifiedDomainSites } from "../services/domains/index";
import { siteSlugOf } from "./site-request";

export type SiteHosts = {
  /** The slug of the site the Host names, "" for a site host with no site, null when the host is not a site's. */
  slugOf(hostHeader: string | null): string | null;
  /** Settles once the verified domains were read the first time (or that read failed and was logged). */
  ready: Promise<void>;
  close(): void;
};

export function createSiteHosts(o: { sql: Sql; events: EventBus; logger: Logger; domain: string; ttlMs?: number }): SiteHosts {
  const ttl = o.ttlMs ?? 30_000;
  let own = new Map<string, string>();
  let loadedAt = 0;
  let loading: Promise<void> | null = null;
  let again = false;

  function reload(): Promise<void> {
    if (loading) {
      // A change announced during a read may not be in it: read once more after it.
      again = true;
      return loading;
    }
    loadedAt = Date.now();
    loading = verifiedDomainSites(o)
      .then((rows) => {
        own = new Map(rows.map((r) => [r.domain, r.slug ?? ""]));
      })
      .catch((error) => {
        loadedAt = 0;
        o.logger.warn("own domains not read", { error: String(error) });
      })
      .finally(() => {
        loading = null;
        if (again) {
          again = false;
          void reload();
        }
      });
    return loading;
  }

  const unsubscribe = o.events.subscribeSite((event) => {
    if (event.type === "site.changed") void reload();
  });

  return {
    slugOf(hostHeader) {
      const slug = siteSlugOf(hostHeader, o.domain);
      if (slug !== null || !hostHeader) return slug;
      if (Date.now() - loadedAt > ttl) void reload();
      return own.get(hostHeader.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "")) ?? null;
    },
    ready: reload(),
    close: unsubscribe,
  };
}
