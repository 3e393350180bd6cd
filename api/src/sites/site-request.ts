/**
 * Reading a site request: which slug its Host names (`<slug>.<SITES_DOMAIN>`), and which file of the
 * deployment its path names. Paths are decoded once and refused (400) when they hold `..`, `.` segments,
 * backslashes, NUL or other control characters, or bad percent-encoding: a file outside the deployment
 * cannot be named because a deployment is only a manifest, but a refused path never reaches the lookup.
 *
 * Bun (1.4) resolves dot segments, their `%2e` spellings and `\` in `req.url` before any handler runs, so
 * `/%2e%2e/x` arrives in `req.url` as `/x`. Bun.serve's `routes`, though, match the request target as it was
 * sent, and a route's params hold its segments (decoded once): `rawSegmentRoutes` turns that into the one
 * view of the raw path Bun offers, and `hidesDotSegments` reads it. The Caddyfile refuses the same spellings
 * in front (security/site-paths.security.test.ts).
 */

/** The slug of a site host, "" for the bare sites domain, or null when the host is not a site's. */
export function siteSlugOf(hostHeader: string | null, domain: string): string | null {
  if (!hostHeader) return null;
  const host = hostHeader.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  if (host === domain) return "";
  if (!host.endsWith(`.${domain}`)) return null;
  const slug = host.slice(0, -domain.length - 1);
  return /^[a-z0-9-]{1,63}$/.test(slug) ? slug : "";
}

export type SitePath = { ok: true; path: string } | { ok: false };

/** The deployment-relative file path a URL path names ("" for the root), or not ok. */
export function sitePath(rawPath: string): SitePath {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { ok: false };
  }
  if (!decoded.startsWith("/") || decoded.includes("\\") || /[\x00-\x1f\x7f]/.test(decoded) || decoded.length > 2048) return { ok: false };
  const parts = decoded.slice(1).split("/");
  const last = parts.length - 1;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p === "." || p === "..") return { ok: false };
    if (p === "" && i !== last) return { ok: false }; // `//` inside the path
  }
  return { ok: true, path: parts.join("/") };
}

/** The path of a request URL as it is written there (not re-encoded or resolved again), without the query. */
export function rawPathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

/** How many leading segments the raw-path routes capture; a site path deeper than this is refused. */
export const RAW_SEGMENT_DEPTH = 24;

/**
 * Bun.serve `routes` that hand every request with a path of one or more segments to `segments`, with the
 * raw segments as `req.params` (`s0`, `s1`, …), and a path deeper than RAW_SEGMENT_DEPTH (whose tail cannot
 * be read) to `tooDeep`. "/" matches none of them and goes to `fetch`.
 */
export function rawSegmentRoutes<H>(handlers: { segments: H; tooDeep: H }): Record<string, H> {
  const routes: Record<string, H> = {};
  let pattern = "";
  for (let i = 0; i < RAW_SEGMENT_DEPTH; i++) {
    pattern += `/:s${i}`;
    routes[pattern] = handlers.segments;
  }
  routes[`${pattern}/*`] = handlers.tooDeep;
  return routes;
}

/**
 * Whether the raw segments a `rawSegmentRoutes` route captured name something the URL parser resolved away:
 * a `.` or `..` segment in any spelling, a backslash (read as `/`) or a `#` (which ends the path).
 */
export function hidesDotSegments(params: Record<string, string | undefined>): boolean {
  for (let i = 0; i < RAW_SEGMENT_DEPTH; i++) {
    const segment = params[`s${i}`];
    if (segment === undefined) return false;
    if (segment === "." || segment === ".." || segment.includes("\\") || segment.includes("#")) return true;
  }
  return false;
}
