/**
 * On the default local set-up the app lives at `http://app.localhost:<PORT>` (previews beneath it share its
 * site: see lib/config/preview.ts). A browser page opened at the old address, `http://localhost:<PORT>`, is
 * sent there, same path and query, so bookmarks and the old README keep working. Only a browser navigating a
 * document is redirected (`Sec-Fetch-Dest: document`): scripts, health checks and API clients on localhost or
 * 127.0.0.1 are answered as before. The redirect is temporary (302): the same port may later serve another
 * set-up (PUBLIC_URL), and a browser must not remember this one.
 *
 * @example
 * app.use("*", localAppHost(config)); // GET http://localhost:3000/projects → 302 http://app.localhost:3000/projects
 */
import { createMiddleware } from "hono/factory";
import type { Config } from "../lib/config";
import { LOCAL_APP_HOST } from "../lib/config/preview";

/** Where a navigation to `url` with Host `host` belongs, or null when it is served where it is. */
export function localAppRedirect(
  config: Pick<Config, "publicUrl" | "preview">,
  method: string,
  host: string | undefined,
  dest: string | undefined,
  url: string,
): string | null {
  if (config.publicUrl || config.preview.domain !== LOCAL_APP_HOST) return null;
  if ((method !== "GET" && method !== "HEAD") || dest !== "document" || !host) return null;
  const m = /^localhost(:\d+)?$/i.exec(host);
  if (!m) return null;
  const u = new URL(url);
  return `http://${LOCAL_APP_HOST}${m[1] ?? ""}${u.pathname}${u.search}`;
}

export function localAppHost(config: Pick<Config, "publicUrl" | "preview">) {
  return createMiddleware(async (c, next) => {
    const to = localAppRedirect(config, c.req.method, c.req.header("host"), c.req.header("sec-fetch-dest"), c.req.url);
    if (!to) return next();
    return c.redirect(to, 302);
  });
}
