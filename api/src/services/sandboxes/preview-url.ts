/**
 * The preview URL of a project's app: the provider's own public host when it has one (E2B), otherwise
 * `<port>-<sandboxId>.<preview domain>`, which the API's preview proxy routes on the Host header.
 *
 * @example
 * previewUrlFor(config.preview, sandbox, 5173); // "http://5173-abc….localhost:3000"
 */
import type { Config } from "../../lib/config";
import type { Sandbox } from "../../sandbox/types";

export function previewUrl(preview: Config["preview"], sandboxId: string, port: number): string {
  return `${preview.scheme}://${port}-${sandboxId}.${preview.domain}${preview.portSuffix}`;
}

export function previewUrlFor(preview: Config["preview"], sandbox: Sandbox, port: number): string {
  const host = sandbox.publicPreviewHost(port);
  return host ? `https://${host}` : previewUrl(preview, sandbox.id, port);
}
