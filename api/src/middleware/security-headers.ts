/**
 * Security headers for the app's own responses (never for previews, which the preview proxy serves on
 * their own origins). The Content-Security-Policy allows exactly what the SPA loads: its own assets, the
 * inline theme script (by hash, read from the built index.html), Firebase sign-in, and previews in frames;
 * nobody may frame the app itself.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createMiddleware } from "hono/factory";
import type { Config } from "../lib/config";

/** 'sha256-…' sources for every inline <script> in the built index.html. */
export function inlineScriptHashes(webDist: string | null): string[] {
  if (!webDist || !existsSync(join(webDist, "index.html"))) return [];
  const html = readFileSync(join(webDist, "index.html"), "utf8");
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${new Bun.CryptoHasher("sha256").update(m[1]!).digest("base64")}'`,
  );
}

export function contentSecurityPolicy(config: Config, scriptHashes: string[]): string {
  const { preview, auth } = config;
  const emulator = auth.mode === "emulator" ? `http://${auth.emulatorHost}` : "";
  const previews = `${preview.scheme}://*.${preview.domain}${preview.portSuffix}`;
  const e2b = config.sandbox.provider === "e2b" ? "https://*.e2b.app" : "";
  const google = "https://apis.google.com";
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptHashes, google],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", "https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com", "https://www.googleapis.com", emulator],
    "frame-src": [previews, e2b, `https://${auth.authDomain}`, "https://accounts.google.com", google, emulator],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.filter(Boolean).join(" ")}`)
    .join("; ");
}

export function securityHeaders(config: Config, webDist: string | null) {
  const csp = contentSecurityPolicy(config, inlineScriptHashes(webDist));
  return createMiddleware(async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
    c.header("X-Frame-Options", "DENY");
    c.header("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    // Previews share the app's site (`<port>-<id>.app.localhost`, or under PUBLIC_URL's host): keyed by origin,
    // the app's document can never be opened up to them by a `document.domain` assignment.
    c.header("Origin-Agent-Cluster", "?1");
    // JSON and images never need a policy of their own; the HTML document is what a CSP protects.
    if (c.res.headers.get("content-type")?.startsWith("text/html")) c.header("Content-Security-Policy", csp);
  });
}
