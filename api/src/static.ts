/**
 * Serves the built SPA: files from web/dist, `index.html` for any other non-API path (client routing).
 * Hashed assets are cached for a year; index.html never, so a deploy is picked up at once.
 */
import { existsSync } from "node:fs";
import { join, normalize } from "node:path";
import type { Context } from "hono";

export function serveSpa(webDist: string) {
  const indexFile = join(webDist, "index.html");
  return async (c: Context) => {
    const path = decodeURIComponent(new URL(c.req.url).pathname);
    const candidate = normalize(join(webDist, path));
    if (candidate.startsWith(webDist + "/") && !candidate.endsWith("/") && existsSync(candidate)) {
      const file = Bun.file(candidate);
      if (file.size > 0 || path !== "/") {
        const immutable = path.startsWith("/assets/");
        return new Response(file, {
          headers: { "cache-control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=300" },
        });
      }
    }
    return new Response(Bun.file(indexFile), {
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
    });
  };
}
