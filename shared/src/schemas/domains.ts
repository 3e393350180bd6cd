/**
 * A project's own domains (`/api/projects/{id}/domains…`, body `{"domain": "shop.example.com"}`): the TXT record
 * that proves a domain, and the shape rules a name must meet (the same words in the browser and on the server;
 * the server also refuses names under its own domains and names another project holds). No zod here: the
 * Publish dialog imports this module, and zod would weigh on the page.
 *
 * @example
 * normalizeDomain(" WWW.Example.com. "); // "www.example.com"
 * domainShapeProblem("10.0.0.1"); // "10.0.0.1 is an IP address: …"
 */
export type { SiteDomain } from "./responses";

/** The TXT record's name is this label before the domain: `_appbuilder.shop.example.com`. */
export const TXT_LABEL = "_appbuilder";
export const txtNameOf = (domain: string) => `${TXT_LABEL}.${domain}`;
export const MAX_DOMAINS_PER_PROJECT = 20;

/** Lower-cased, without spaces or a final dot; international names in their ASCII (punycode) form. */
export function normalizeDomain(input: string): string {
  const d = input.trim().toLowerCase().replace(/\.$/, "");
  if (/^[\x21-\x7e]*$/.test(d)) return d;
  try {
    return new URL(`http://${d}`).hostname;
  } catch {
    return d;
  }
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why a (normalized) name cannot be a site's domain by its shape alone, or null when it can. */
export function domainShapeProblem(domain: string): string | null {
  if (domain === "") return "Type a domain, such as shop.example.com.";
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(domain) || domain.includes("/")) return "Type the domain alone, such as shop.example.com (no https:// and no path).";
  if (IPV4.test(domain) || domain.includes(":") || /^\[.*\]$/.test(domain))
    return `${domain} is an IP address: a site needs a domain name, such as shop.example.com.`;
  if (domain === "localhost" || domain.endsWith(".localhost")) return `${domain} names this machine, not a public site: use a domain you own.`;
  if (domain.length > 253) return "A domain has at most 253 characters.";
  const labels = domain.split(".");
  if (labels.some((l) => !LABEL.test(l)))
    return `${domain} is not a valid domain name: each part between dots is 1–63 letters, digits or hyphens, not starting or ending with a hyphen.`;
  if (labels.length < 2) return `${domain} is not a full domain name: add its ending, such as ${domain}.com.`;
  if (/^\d+$/.test(labels.at(-1)!)) return `${domain} is not a valid domain name: its ending cannot be a number.`;
  return null;
}
