/**
 * The preview URL of a project's app: the provider's own public host when it has one (E2B), otherwise
 * `<port>-<sandboxId>.<preview domain>`, which the API's preview proxy routes on the Host header.
 *
 * @example
 * previewUrlFor(config.preview, sandbox, 5173); // "http://5173-abc….app.localhost:3000"
 */
import type { Config } from "../../lib/config";
import { ENTER_PATH } from "../../lib/preview-grant";
import type { Sandbox } from "../../sandbox/types";

export function previewUrl(preview: Config["preview"], sandboxId: string, port: number): string {
  return `${preview.scheme}://${port}-${sandboxId}.${preview.domain}${preview.portSuffix}`;
}

export function previewUrlFor(preview: Config["preview"], sandbox: Sandbox, port: number): string {
  const host = sandbox.publicPreviewHost(port);
  return host ? `https://${host}` : previewUrl(preview, sandbox.id, port);
}

/**
 * The host name (no port) of a preview URL served by this server's preview proxy, which a preview ticket is
 * made for; null for a provider's own host (E2B), which the proxy never sees.
 */
export function proxiedPreviewHost(preview: Config["preview"], url: string | null): string | null {
  if (!url) return null;
  try {
    const { hostname } = new URL(url);
    return /^\d{2,5}-[a-z0-9]{8,64}\./.test(hostname) && hostname.endsWith(`.${preview.domain.toLowerCase()}`) ? hostname : null;
  } catch {
    return null;
  }
}

/** The URL on a proxied preview host where a ticket is spent (`ENTER_PATH`), before the page's own `next`. */
export function enterUrl(preview: Config["preview"], host: string, ticket: string): string {
  return `${preview.scheme}://${host}${preview.portSuffix}${ENTER_PATH}?ticket=${encodeURIComponent(ticket)}`;
}
