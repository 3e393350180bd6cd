/**
 * Serves the built SPA: files from web/dist, `index.html` for any other non-API path (client routing).
 * Hashed assets are cached for a year; index.html never, so a deploy is picked up at once. Text assets are
 * gzipped once and kept in memory (the build never changes while the server runs), so compression costs
 * nothing per request.
 */
import { existsSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import type { Context } from "hono";

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".html", ".svg", ".json", ".map", ".txt", ".wasm"]);

export function serveSpa(webDist: string) {
  const indexFile = join(webDist, "index.html");
  const gzipped = new Map<string, Promise<Uint8Array>>();
  const gzipOf = (file: string) => {
    let cached = gzipped.get(file);
    if (!cached) {
      cached = Bun.file(file)
        .arrayBuffer()
        .then((bytes) => Bun.gzipSync(new Uint8Array(bytes), { level: 9 }));
      gzipped.set(file, cached);
    }
    return cached;
  };

  const send = async (c: Context, file: string, headers: Record<string, string>) => {
    const acceptsGzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    if (acceptsGzip && COMPRESSIBLE.has(extname(file))) {
      const body = await gzipOf(file);
      return new Response(body as Uint8Array<ArrayBuffer>, {
        headers: { ...headers, "content-type": Bun.file(file).type, "content-encoding": "gzip", vary: "Accept-Encoding" },
      });
    }
    return new Response(Bun.file(file), { headers: { ...headers, vary: "Accept-Encoding" } });
  };

  return async (c: Context) => {
    const path = decodeURIComponent(new URL(c.req.url).pathname);
    const candidate = normalize(join(webDist, path));
    if (candidate.startsWith(webDist + "/") && !candidate.endsWith("/") && existsSync(candidate)) {
      const immutable = path.startsWith("/assets/");
      return send(c, candidate, { "cache-control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=300" });
    }
    return send(c, indexFile, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
  };
}
