/**
 * Small pure helpers for the preview: the cache-busting `_refresh` parameter and the name of the
 * downloaded source file.
 *
 * @example
 * withRefreshParam("http://5173-abc.localhost:3000/", 42) // "http://5173-abc.localhost:3000/?_refresh=42"
 */

export const REFRESH_PARAM = "_refresh";

/** The URL with `_refresh={key}` set (replacing an older one), keeping its path, query and hash. */
export function withRefreshParam(url: string, key: number | string): string {
  try {
    const u = new URL(url);
    u.searchParams.set(REFRESH_PARAM, String(key));
    return u.toString();
  } catch {
    // Not an absolute URL: append by hand rather than lose the preview.
    const [base, hash = ""] = url.split("#", 2) as [string, string?];
    const sep = base.includes("?") ? "&" : "?";
    return `${base}${sep}${REFRESH_PARAM}=${encodeURIComponent(String(key))}${hash ? `#${hash}` : ""}`;
  }
}

export function sourceJsonName(projectName: string): string {
  return `${projectName}-source.json`;
}
