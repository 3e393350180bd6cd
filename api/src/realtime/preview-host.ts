/**
 * Reads preview host names, `<port>-<sandboxId>.<preview domain>` (E2B's own shape), for the proxy. The URLs
 * themselves are built by the sandbox service (services/sandboxes/preview-url.ts).
 */
const HOST = /^(\d{2,5})-([a-z0-9]{8,64})\.(.+)$/;

export function parsePreviewHost(hostHeader: string | null, domain: string): { port: number; sandboxId: string } | null {
  if (!hostHeader) return null;
  const host = hostHeader.toLowerCase().replace(/:\d+$/, "");
  const m = HOST.exec(host);
  if (!m || m[3] !== domain.toLowerCase()) return null;
  const port = Number(m[1]);
  if (port < 1 || port > 65535) return null;
  return { port, sandboxId: m[2]! };
}
