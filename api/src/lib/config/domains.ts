/**
 * Own domains (services/domains): the DNS servers a domain's TXT record is looked up on. Unset: the system's
 * resolvers. Set: a comma- or space-separated list of `host:port` (or `host`, port 53), e.g. a resolver that
 * sees the public DNS when the machine's own one answers only for the local network.
 *
 * @example
 * domainsConfig({ DNS_SERVERS: "1.1.1.1:53, 9.9.9.9" }).domains; // { dnsServers: ["1.1.1.1:53", "9.9.9.9:53"] }
 */
import { z } from "zod";
import { optionalString } from "./values";

const SERVER = /^(?:[0-9.]+|\[[0-9a-f:]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

export const domainsEnv = {
  DNS_SERVERS: optionalString.pipe(
    z
      .string()
      .refine(
        (v) =>
          v
            .split(/[\s,]+/)
            .filter(Boolean)
            .every((s) => SERVER.test(s)),
        "must be a list of host:port, such as 1.1.1.1:53,9.9.9.9:53",
      )
      .optional(),
  ),
};

/** `dnsServers` null: the system's resolvers. */
export type DomainsConfig = { domains: { dnsServers: string[] | null } };

export function domainsConfig(e: z.infer<z.ZodObject<typeof domainsEnv>>): DomainsConfig {
  const list = e.DNS_SERVERS?.split(/[\s,]+/).filter(Boolean) ?? [];
  return { domains: { dnsServers: list.length ? list.map((s) => (/:\d+$/.test(s) ? s : `${s}:53`)) : null } };
}
