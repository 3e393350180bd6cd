/**
 * The HTTP client git uses to reach user-given remotes (services/git), in the request/response shape
 * isomorphic-git asks for. Every request, and every redirect it follows, is checked before it is sent:
 * HTTPS only (plain HTTP when allowed), no credentials in the URL, and the host's every DNS address public
 * (lib/outbound-address.ts) unless private hosts are allowed. Authorization goes only to the origin it was
 * meant for: a redirect to another origin drops it. A response larger than `maxResponseBytes` is cut off.
 *
 * The connection goes to the address that was checked, not to the name resolved again: a host answering DNS
 * differently a second later (rebinding) cannot turn a checked public name into a private address. HTTPS
 * still verifies the certificate against the name (TLS serverName) and the Host header carries it.
 *
 * @example
 * const http = guardedHttp({ allowHttp: false, allowPrivateHosts: false, maxResponseBytes: 200 << 20, signal });
 * await git.listServerRefs({ http, url });
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPublicAddress } from "./outbound-address";

export type GuardOptions = {
  allowHttp: boolean;
  allowPrivateHosts: boolean;
  /** Largest response body read; a larger one fails the request (a repository too big for a project). */
  maxResponseBytes: number;
  /** Ends every request at once (the operation's time limit). */
  signal?: AbortSignal;
  /** Resolves a host name to its addresses (tests hand in their own). */
  resolve?: (host: string) => Promise<string[]>;
  /** Which addresses may be reached (tests stand a loopback address in for a public one). */
  isAllowedAddress?: (address: string) => boolean;
};

/** A checked URL and, unless private hosts are allowed, the address its connection must use. */
type CheckedUrl = { url: URL; address: string | null };

/** A URL the rules refuse; `message` says why in words a person can act on. */
export class RefusedUrlError extends Error {}
/** The response was larger than allowed. */
export class ResponseTooLargeError extends Error {}

type Request = { url: string; method?: string; headers?: Record<string, string>; body?: AsyncIterableIterator<Uint8Array> | Uint8Array[] };
type Response = {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: AsyncIterableIterator<Uint8Array>;
  statusCode: number;
  statusMessage: string;
};

const MAX_REDIRECTS = 5;

const defaultResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

type CheckOptions = Pick<GuardOptions, "allowHttp" | "allowPrivateHosts" | "resolve" | "isAllowedAddress">;

/** Throws RefusedUrlError unless the URL may be fetched under the options. */
export async function checkOutboundUrl(raw: string | URL, o: CheckOptions): Promise<URL> {
  return (await checkOutbound(raw, o)).url;
}

async function checkOutbound(raw: string | URL, o: CheckOptions): Promise<CheckedUrl> {
  const url = new URL(raw);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && o.allowHttp)) {
    throw new RefusedUrlError(
      url.protocol === "http:"
        ? "Only HTTPS remotes are allowed (the server sets GIT_ALLOW_HTTP=true to allow plain HTTP)."
        : `${url.protocol} URLs are not supported; use an HTTPS URL.`,
    );
  }
  if (url.username || url.password) throw new RefusedUrlError("Credentials may not be part of the URL.");
  if (o.allowPrivateHosts) return { url, address: null };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (o.resolve ?? defaultResolve)(host);
  } catch {
    throw new RefusedUrlError(`The host ${host} could not be found.`);
  }
  if (addresses.length === 0) throw new RefusedUrlError(`The host ${host} could not be found.`);
  if (!addresses.every(o.isAllowedAddress ?? isPublicAddress)) {
    throw new RefusedUrlError(
      `${host} is a loopback, private, link-local or metadata address, which the server does not reach (GIT_ALLOW_PRIVATE_HOSTS=true allows a forge on the local network).`,
    );
  }
  return { url, address: addresses[0]! };
}

/** The request as sent: to the checked address, naming the host in the Host header and for TLS. */
function pinned({ url, address }: CheckedUrl, headers: Record<string, string>): { target: URL; headers: Record<string, string>; tls?: { serverName: string } } {
  if (!address || isIP(url.hostname.replace(/^\[|\]$/g, ""))) return { target: url, headers };
  const target = new URL(url);
  target.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return { target, headers: { ...headers, host: url.host }, ...(url.protocol === "https:" ? { tls: { serverName: url.hostname } } : {}) };
}

async function collect(body: Request["body"]): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!body) return undefined;
  const parts: Uint8Array[] = [];
  for await (const part of body as AsyncIterable<Uint8Array>) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

async function readLimited(res: globalThis.Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > max) throw new ResponseTooLargeError(`The remote answered with more than ${Math.round(max / 1048576)} MB.`);
  const parts: Uint8Array[] = [];
  let total = 0;
  if (res.body) {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.length;
      if (total > max) throw new ResponseTooLargeError(`The remote answered with more than ${Math.round(max / 1048576)} MB.`);
      parts.push(chunk);
    }
  }
  return Buffer.concat(parts);
}

export function guardedHttp(o: GuardOptions) {
  return {
    async request(req: Request): Promise<Response> {
      const body = await collect(req.body);
      let method = req.method ?? "GET";
      let headers: Record<string, string> = { ...req.headers };
      let checked = await checkOutbound(req.url, o);
      const origin = checked.url.origin;
      for (let hop = 0; ; hop++) {
        const url = checked.url;
        const send = pinned(checked, headers);
        const res = await fetch(send.target, {
          method,
          headers: send.headers,
          body: method === "GET" || method === "HEAD" ? undefined : body,
          redirect: "manual",
          signal: o.signal,
          ...(send.tls ? { tls: send.tls } : {}),
        } as RequestInit);
        const location = res.headers.get("location");
        if (res.status >= 300 && res.status < 400 && location) {
          await res.body?.cancel();
          if (hop >= MAX_REDIRECTS) throw new RefusedUrlError("The remote redirected too many times.");
          checked = await checkOutbound(new URL(location, url), o);
          if (checked.url.origin !== origin) {
            const { authorization: _dropped, ...rest } = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
            headers = rest;
          }
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) method = "GET";
          continue;
        }
        const bytes = await readLimited(res, o.maxResponseBytes);
        return {
          url: url.toString(),
          method,
          headers: Object.fromEntries(res.headers.entries()),
          body: (async function* () {
            yield bytes;
          })(),
          statusCode: res.status,
          statusMessage: res.statusText,
        };
      }
    },
  };
}
