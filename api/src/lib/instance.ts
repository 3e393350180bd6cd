/**
 * Which process this is: behind a load balancer, tells instances apart (matches `docker ps` names). Recorded
 * with each running answer and each sandbox lease, so the admin page can list them per instance.
 */
import { hostname } from "node:os";

export const INSTANCE_ID = `${hostname()}-${process.pid}`;

let internalUrl: string | null = null;

/**
 * Records where other instances reach this one (INTERNAL_URL, else `http://<HOST>:<port>` once listening:
 * the port may be 0 until then). Recorded with each sandbox this instance owns, so they forward to it.
 */
export function setInternalUrl(configured: string | null, listening: { host: string; port: number }): string {
  const host = listening.host === "0.0.0.0" || listening.host === "::" ? hostname() : listening.host;
  internalUrl = configured ?? `http://${host.includes(":") ? `[${host}]` : host}:${listening.port}`;
  return internalUrl;
}

/** This instance's internal address, or null before it listens (a test app that never serves). */
export function instanceInternalUrl(): string | null {
  return internalUrl;
}
