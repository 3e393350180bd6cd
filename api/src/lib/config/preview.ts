/**
 * Where previews are served: `<port>-<sandboxId>.<domain>`, with the scheme and port suffix users reach the
 * app by (from PUBLIC_URL, else the local port).
 * Locally the app lives at `app.localhost:<PORT>` and previews beneath it, so the preview frame is the app's own
 * site and gets first-party storage (localStorage, IndexedDB, cookies), as under PUBLIC_URL's host in
 * production. Each preview is still an origin of its own: it reads neither the app's storage nor another
 * preview's. With the app at `localhost` the frame was another site, whose storage Chromium refuses whenever
 * third-party cookies are blocked ("Access is denied for this document").
 *
 * @example
 * previewConfig(undefined, undefined, 3000); // { domain: "app.localhost", scheme: "http", portSuffix: ":3000" }
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

/** The app's host on the default local set-up; its previews are `<port>-<sandboxId>.app.localhost`. */
export const LOCAL_APP_HOST = "app.localhost";

export function previewConfig(domain: string | undefined, publicUrl: string | undefined, port: number): PreviewConfig {
  if (publicUrl) {
    const u = new URL(publicUrl);
    return { domain: domain ?? u.hostname, scheme: u.protocol === "https:" ? "https" : "http", portSuffix: u.port ? `:${u.port}` : "" };
  }
  // Browsers resolve *.localhost to loopback, so neither the app's host nor its previews need DNS set-up.
  return { domain: domain ?? LOCAL_APP_HOST, scheme: "http", portSuffix: `:${port}` };
}
