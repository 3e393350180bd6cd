/** Content types by file extension for published sites, and which of them are worth compressing. */

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  cjs: "text/javascript; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  webmanifest: "application/manifest+json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  eot: "application/vnd.ms-fontobject",
  wasm: "application/wasm",
  pdf: "application/pdf",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  wav: "audio/wav",
  zip: "application/zip",
};

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm)|image\/svg\+xml|font\/(ttf|otf)|application\/vnd\.ms-fontobject)/;

export const extensionOf = (path: string): string => {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
};

export const contentTypeOf = (path: string): string => TYPES[extensionOf(path)] ?? "application/octet-stream";

export const isCompressible = (contentType: string): boolean => COMPRESSIBLE.test(contentType);

export const isHtml = (contentType: string): boolean => contentType.startsWith("text/html");

/**
 * Whether a file's name carries a content hash (`index-B2q4Gw9b.js`, `main.3f2a1b9c.css`), so it may be
 * cached for a year: a new build gives changed content a new name. A hash-like part has 8+ characters
 * with a digit or an upper-case letter, so `my-component.js` does not pass for one.
 */
export function isHashedAsset(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const m = /[.-]([A-Za-z0-9_-]{8,})\.[A-Za-z0-9]+$/.exec(name);
  return m !== null && /[0-9A-Z]/.test(m[1]!) && !isHtml(contentTypeOf(path));
}
