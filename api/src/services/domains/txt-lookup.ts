/**
 * Looking up a domain's TXT records on the configured resolvers (DNS_SERVERS, `host:port`) or the system's.
 * Answers the records found (each one's strings joined, as RFC 7208 reads a split record) or why none could be
 * read, in words for the person verifying.
 *
 * @example
 * const found = await lookupTxt("_appbuilder.shop.example.com", ["127.0.0.1:5353"]);
 * if (found.ok) found.records; // ["appbuilder-verify=…"]
 */
import { Resolver } from "node:dns/promises";

export type TxtLookup = { ok: true; records: string[] } | { ok: false; reason: string };

const NO_RECORD = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"]);

export async function lookupTxt(name: string, servers: string[] | null, timeoutMs = 5000): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers) resolver.setServers(servers);
  try {
    const records = await resolver.resolveTxt(name);
    return { ok: true, records: records.map((chunks) => chunks.join("")) };
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (NO_RECORD.has(code)) return { ok: true, records: [] };
    return { ok: false, reason: `the DNS lookup failed (${code || String(error)})` };
  }
}

/** Which resolvers a lookup used, for the person reading why it failed. */
export const resolversLabel = (servers: string[] | null) => (servers ? servers.join(", ") : "the system's resolvers");
