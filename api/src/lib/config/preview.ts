/**
 * Where previews are served: `<port>-<sandboxId>.<domain>`, with the scheme and port suffix users reach the
 * app by (from PUBLIC_URL, else the local port).
 *
 * @example
 * previewConfig(undefined, undefined, 3000); // { domain: "localhost", scheme: "http", portSuffix: ":3000" }
 */
import { z } from "zod";
import { optionalString } from "./values";

export const previewEnv = {
  PREVIEW_DOMAIN: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9.-]+$/i, "must be a bare domain such as preview.example.com (no scheme or port)")
      .optional(),
  ),
};

/** Preview hosts are `<port>-<sandboxId>.<domain>`; scheme and port suffix come from PUBLIC_URL. */
export type PreviewConfig = { domain: string; scheme: "http" | "https"; portSuffix: string };

export function previewConfig(domain: string | undefined, publicUrl: string | undefined, port: number): PreviewConfig {
  if (publicUrl) {
    const u = new URL(publicUrl);
    return { domain: domain ?? u.hostname, scheme: u.protocol === "https:" ? "https" : "http", portSuffix: u.port ? `:${u.port}` : "" };
  }
  // Browsers resolve *.localhost to loopback, so local previews need no DNS set-up.
  return { domain: domain ?? "localhost", scheme: "http", portSuffix: `:${port}` };
}
