/**
 * Serves published sites at `<slug>.<SITES_DOMAIN>` and on their projects' verified own domains (the Host
 * lookup is site-hosts.ts) straight from the object store, on every instance:
 * the slug's live deployment is a manifest (path → content hash), files are read by hash and kept in a
 * small LRU with their gzip and brotli forms. Client-side routes (a path without an extension) get the
 * deployment's index.html; anything else missing gets its 404.html or a plain 404. Hashed assets are cached
 * for a year, HTML never without revalidation; ETags answer 304; Range answers 206 (several ranges as
 * multipart/byteranges, see byte-ranges.ts).
 *
 * A site is someone's public code on an origin of its own: it gets no app cookies, no app API (nothing on
 * a site host reaches the Hono app) and headers suited to a public site.
 *
 * @example
 * const sites = createSiteServer({ sql, store, events, logger, domain: "sites.localhost" });
 * const res = sites.handle(req); // null when the host is not a site's
 */
import type { Server } from "bun";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { Sql } from "../db/client";
import type { EventBus } from "../events/types";
import type { Logger } from "../lib/logger";
import { loadLiveSite, readSiteBlob, type LiveSite } from "../services/publish/live-site";
import type { ObjectStore } from "../storage/types";
import { multipartByteRanges, newBoundary, parseRanges, type ByteRange } from "./byte-ranges";
import { contentTypeOf, extensionOf, isCompressible, isHashedAsset, isHtml } from "./content-types";
import type { ServerProxy } from "./server-proxy";
import { ByteLru, type CachedBlob, type CachedSite } from "./site-cache";
import { createSiteHosts } from "./site-hosts";
import { rawPathOf, sitePath } from "./site-request";

export type SiteServerOptions = {
  sql: Sql;
  store: ObjectStore;
  events: EventBus;
  logger: Logger;
  domain: string;
  /** "https" adds Strict-Transport-Security. */
  scheme?: "http" | "https";
  cacheBytes?: number;
  /** A slug's deployment is looked up again after this long, should a bus notification have been lost. */
  siteTtlMs?: number;
  /** Where requests for a server deployment go (server-proxy.ts); without it such a site answers 502. */
  servers?: ServerProxy;
};

export type SiteServer = {
  /** `raw.hidesDotSegments`: the request target held dot segments Bun resolved out of `req.url` (site-request.ts). */
  /** `server`: the Bun server, for a server deployment's WebSocket upgrade (then the answer is undefined, as Bun wants). */
  handle(req: Request, raw?: { hidesDotSegments: boolean }, server?: Server<unknown>): Response | Promise<Response> | null;
  /** Settles once the projects' own domains were read (site-hosts.ts): wait for it before taking requests. */
  ready: Promise<void>;
  close(): void;
};

const COMPRESS_MIN_BYTES = 1024;
/** Files larger than this are not kept in memory (read from the store per request). */
const MAX_CACHED_FILE = 8 * 1024 * 1024;

const NOT_FOUND_PAGE = new TextEncoder().encode(
  '<!doctype html><html><head><meta charset="utf-8"><title>Not found</title></head>' +
    '<body style="font-family:system-ui;text-align:center;padding:4rem"><h1>404</h1><p>This page does not exist.</p></body></html>',
);
const NO_SITE_PAGE = new TextEncoder().encode(
  '<!doctype html><html><head><meta charset="utf-8"><title>No site here</title></head>' +
    '<body style="font-family:system-ui;text-align:center;padding:4rem"><h1>404</h1><p>No site is published at this address.</p></body></html>',
);

export function createSiteServer(o: SiteServerOptions): SiteServer {
  const domain = o.domain.toLowerCase();
  const siteTtl = o.siteTtlMs ?? 30_000;
  const sites = new Map<string, CachedSite>();
  const loadingSites = new Map<string, Promise<LiveSite | null>>();
  const blobs = new ByteLru<CachedBlob>(o.cacheBytes ?? 64 * 1024 * 1024);
  const loadingBlobs = new Map<string, Promise<CachedBlob | null>>();
  const base: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "interest-cohort=()",
    ...(o.scheme === "https" ? { "strict-transport-security": "max-age=31536000" } : {}),
  };

  const hosts = createSiteHosts({ sql: o.sql, events: o.events, logger: o.logger, domain, ttlMs: siteTtl });
  const unsubscribe = o.events.subscribeSite((event) => {
    if (event.type !== "site.changed") return;
    sites.delete(event.slug);
    loadingSites.delete(event.slug);
  });

  function siteFor(slug: string): LiveSite | null | Promise<LiveSite | null> {
    const hit = sites.get(slug);
    if (hit && Date.now() - hit.loadedAt < siteTtl) return hit.site;
    let loading = loadingSites.get(slug);
    if (!loading) {
      const started = Date.now();
      loading = loadLiveSite(o, slug).then((site) => {
        // A change announced while this was loading wins: only a still-current load is remembered.
        if (loadingSites.get(slug) === loading) {
          sites.set(slug, { site, loadedAt: started });
          loadingSites.delete(slug);
        }
        return site;
      });
      loadingSites.set(slug, loading);
      loading.catch(() => loadingSites.get(slug) === loading && loadingSites.delete(slug));
    }
    return loading;
  }

  function blobFor(sha256: string, size: number): CachedBlob | null | Promise<CachedBlob | null> {
    const hit = blobs.get(sha256);
    if (hit) return hit;
    let loading = loadingBlobs.get(sha256);
    if (!loading) {
      loading = readSiteBlob(o, sha256)
        .then((bytes) => {
          if (!bytes) return null;
          const blob: CachedBlob = { bytes, size: bytes.length };
          if (size <= MAX_CACHED_FILE) blobs.set(sha256, blob);
          return blob;
        })
        .finally(() => loadingBlobs.delete(sha256));
      loadingBlobs.set(sha256, loading);
    }
    return loading;
  }

  function compressed(sha256: string, blob: CachedBlob, encoding: "br" | "gzip"): Uint8Array {
    const have = blob[encoding];
    if (have) return have;
    const out =
      encoding === "br"
        ? new Uint8Array(brotliCompressSync(blob.bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: blob.bytes.length } }))
        : new Uint8Array(gzipSync(blob.bytes, { level: 9 }));
    // Not worth it when it saves nothing: the plain bytes serve every client.
    const kept = out.length < blob.bytes.length ? out : blob.bytes;
    blob[encoding] = kept;
    if (kept !== blob.bytes) blobs.resize(sha256, blob, kept.length);
    return kept;
  }

  const plain = (status: number, body: Uint8Array | string, extra: Record<string, string> = {}) =>
    new Response(body as BodyInit, { status, headers: { ...base, "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...extra } });

  function respond(req: Request, site: LiveSite, path: string): Response | Promise<Response> {
    const files = site.files;
    const has = (p: string) => Object.hasOwn(files, p);
    let file = path === "" || path.endsWith("/") ? `${path}index.html` : path;
    let status = 200;
    if (!has(file)) {
      if (has(`${file}/index.html`)) file = `${file}/index.html`;
      else if (extensionOf(file) === "" && has("index.html"))
        file = "index.html"; // a client-side route
      else if (has("404.html")) {
        file = "404.html";
        status = 404;
      } else return plain(404, NOT_FOUND_PAGE);
    }
    const [sha256, size] = files[file]!;
    const blob = blobFor(sha256, size);
    if (blob instanceof Promise) {
      return blob.then((b) => (b ? send(req, file, sha256, b, status) : plain(404, NOT_FOUND_PAGE)));
    }
    return blob ? send(req, file, sha256, blob, status) : plain(404, NOT_FOUND_PAGE);
  }

  function send(req: Request, file: string, sha256: string, blob: CachedBlob, status: number): Response {
    const type = contentTypeOf(file);
    const html = isHtml(type);
    const etag = `"${sha256.slice(0, 32)}"`;
    const headers: Record<string, string> = {
      ...base,
      "content-type": type,
      "cache-control": html || status !== 200 ? "no-cache" : isHashedAsset(file) ? "public, max-age=31536000, immutable" : "public, no-cache",
      "accept-ranges": "bytes",
    };
    const compressible = isCompressible(type) && blob.bytes.length >= COMPRESS_MIN_BYTES;
    if (compressible) headers.vary = "Accept-Encoding";
    const head = req.method === "HEAD";

    if (status === 200 && matchesEtag(req.headers.get("if-none-match"), sha256)) {
      return new Response(null, { status: 304, headers: { ...headers, etag: compressible ? etagFor(sha256, chooseEncoding(req)) : etag } });
    }

    // Ranges are defined for GET only, and count bytes of the stored file: a range answer is never compressed.
    const range = req.method === "GET" && status === 200 ? req.headers.get("range") : null;
    const ifRange = req.headers.get("if-range");
    if (range && (!ifRange || ifRange === etag)) {
      const r = parseRanges(range, blob.bytes.length);
      if (r.kind === "unsatisfiable") {
        return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${blob.bytes.length}`, etag } });
      }
      if (r.kind === "ranges") return rangeResponse(blob.bytes, r.ranges, type, { ...headers, etag });
    }

    const encoding = compressible ? chooseEncoding(req) : null;
    let body = blob.bytes;
    if (encoding) {
      const encoded = compressed(sha256, blob, encoding);
      if (encoded !== blob.bytes) {
        body = encoded;
        headers["content-encoding"] = encoding;
      }
    }
    headers.etag = headers["content-encoding"] ? etagFor(sha256, encoding) : etag;
    if (head) headers["content-length"] = String(body.length);
    return new Response(head ? null : (body as BodyInit), { status, headers });
  }

  return {
    handle(req, raw, server) {
      const slug = hosts.slugOf(req.headers.get("host"));
      if (slug === null) return null;
      if (slug === "") return plain(404, NO_SITE_PAGE);
      const readOnly = req.method === "GET" || req.method === "HEAD";
      const answer = (s: LiveSite | null, path: string): Response | Promise<Response> => {
        if (!s) return plain(404, NO_SITE_PAGE);
        // A server deployment answers every method and path itself (its source is never served as files).
        // An upgraded WebSocket answers undefined, which Bun takes as "upgraded".
        if (s.kind === "server") return o.servers ? (o.servers.handle(req, s, server) as Promise<Response>) : plain(502, "This app is not running.");
        if (!readOnly) return plain(405, "Method not allowed", { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
        return respond(req, s, path);
      };
      const p = sitePath(rawPathOf(req.url));
      if (!p.ok || raw?.hidesDotSegments) return plain(400, "Bad request", { "content-type": "text/plain; charset=utf-8" });
      const fail = (error: unknown) => {
        o.logger.warn("site request failed", { slug, error: String(error) });
        return plain(503, "The site is unavailable right now; try again in a moment.", { "content-type": "text/plain; charset=utf-8", "retry-after": "5" });
      };
      try {
        const site = siteFor(slug);
        if (site instanceof Promise) return site.then((s) => answer(s, p.path)).catch(fail);
        return answer(site, p.path);
      } catch (error) {
        return fail(error);
      }
    },
    ready: hosts.ready,
    close() {
      unsubscribe();
      hosts.close();
    },
  };
}

function etagFor(sha256: string, encoding: "br" | "gzip" | null): string {
  return encoding ? `"${sha256.slice(0, 32)}-${encoding}"` : `"${sha256.slice(0, 32)}"`;
}

/** Any of the listed tags (weak or strong, any encoding suffix) names this content. */
function matchesEtag(header: string | null, sha256: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const id = sha256.slice(0, 32);
  return header.split(",").some(
    (t) =>
      t
        .trim()
        .replace(/^W\//, "")
        .replace(/^"|"$/g, "")
        .replace(/-(br|gzip)$/, "") === id,
  );
}

/** Brotli before gzip, by what Accept-Encoding allows (q=0 refuses). */
export function chooseEncoding(req: Request): "br" | "gzip" | null {
  const header = req.headers.get("accept-encoding");
  if (!header) return null;
  const allowed = new Set<string>();
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((x) => x.trim()).find((x) => x.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) continue;
    allowed.add(name!.trim());
  }
  if (allowed.has("br")) return "br";
  if (allowed.has("gzip") || allowed.has("*")) return "gzip";
  return null;
}

/** 206: one range as it is, several as `multipart/byteranges`. */
function rangeResponse(bytes: Uint8Array, ranges: ByteRange[], type: string, headers: Record<string, string>): Response {
  if (ranges.length === 1) {
    const { start, end } = ranges[0]!;
    return new Response(bytes.subarray(start, end + 1) as BodyInit, {
      status: 206,
      headers: { ...headers, "content-range": `bytes ${start}-${end}/${bytes.length}` },
    });
  }
  const boundary = newBoundary();
  return new Response(multipartByteRanges(bytes, ranges, type, boundary) as BodyInit, {
    status: 206,
    headers: { ...headers, "content-type": `multipart/byteranges; boundary=${boundary}` },
  });
}
