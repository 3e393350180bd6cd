/**
 * Published sites: the domain they are served on (never the app's or the previews'), and each deployment's
 * size limit, build time limit and how many past deployments are kept.
 *
 * @example
 * sitesConfig(e, { publicUrl: "https://builder.example.com", port: 3000, previewDomain: "builder.example.com" });
 * // domain "sites.builder.example.com", scheme "https", portSuffix ""
 */
import { z } from "zod";
import { ConfigError, optionalString, positiveInt } from "./values";

export const sitesEnv = {
  SITES_DOMAIN: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9.-]+(:\d{1,5})?$/i, "must be a bare domain such as sites.example.com, optionally with :port (no scheme)")
      .optional(),
  ),
  MAX_DEPLOYMENT_BYTES: positiveInt(100 * 1024 * 1024),
  PUBLISH_BUILD_TIMEOUT_S: positiveInt(300),
  DEPLOYMENTS_KEEP: positiveInt(10),
  /** Server deployments (issue 22): how long a started server may take to answer HTTP on PORT. */
  PUBLISH_START_TIMEOUT_S: positiveInt(60),
  /** A server deployment with no request for this long is stopped; the next request starts it again. */
  SITE_IDLE_S: positiveInt(900),
  /** Server deployments of one user running at once; starting another puts the least recently used to sleep. */
  MAX_LIVE_SERVERS_PER_USER: positiveInt(3),
};

/** Published sites: `<slug>.<domain><portSuffix>`, their size limit, build time limit and history kept. */
export type SitesConfig = {
  domain: string;
  scheme: "http" | "https";
  portSuffix: string;
  maxDeploymentBytes: number;
  buildTimeoutMs: number;
  keep: number;
  /** Server deployments: start time limit, idle time before sleep, running servers per user. */
  startTimeoutMs: number;
  idleMs: number;
  maxLiveServersPerUser: number;
};

export function sitesConfig(
  e: z.infer<z.ZodObject<typeof sitesEnv>>,
  app: { publicUrl: string | undefined; port: number; previewDomain: string },
): SitesConfig {
  return {
    ...sitesHost(e.SITES_DOMAIN, app.publicUrl, app.port, app.previewDomain),
    maxDeploymentBytes: e.MAX_DEPLOYMENT_BYTES,
    buildTimeoutMs: e.PUBLISH_BUILD_TIMEOUT_S * 1000,
    keep: e.DEPLOYMENTS_KEEP,
    startTimeoutMs: e.PUBLISH_START_TIMEOUT_S * 1000,
    idleMs: e.SITE_IDLE_S * 1000,
    maxLiveServersPerUser: e.MAX_LIVE_SERVERS_PER_USER,
  };
}

/**
 * Sites live on their own domain, never the app's: a site is anyone's code, and must not share the app's
 * origin (its storage, its API). Locally `sites.localhost:<PORT>` needs no DNS, like previews.
 */
function sitesHost(sitesDomain: string | undefined, publicUrl: string | undefined, port: number, previewDomain: string) {
  const scheme: "http" | "https" = publicUrl && new URL(publicUrl).protocol === "https:" ? "https" : "http";
  let domain: string;
  let portSuffix: string;
  if (sitesDomain) {
    const [host, p] = sitesDomain.toLowerCase().split(":");
    domain = host!;
    portSuffix = p ? `:${p}` : "";
  } else if (publicUrl) {
    const u = new URL(publicUrl);
    domain = `sites.${u.hostname}`;
    portSuffix = u.port ? `:${u.port}` : "";
  } else {
    domain = "sites.localhost";
    portSuffix = `:${port}`;
  }
  if (publicUrl && domain === new URL(publicUrl).hostname) {
    throw new ConfigError(`SITES_DOMAIN=${domain} is the app's own host: published sites need a domain of their own (e.g. sites.${domain}).`);
  }
  if (domain === previewDomain.toLowerCase()) {
    throw new ConfigError(`SITES_DOMAIN=${domain} is also the preview domain: give published sites a domain of their own.`);
  }
  return { domain, scheme, portSuffix };
}
