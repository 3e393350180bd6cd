/**
 * One HTTP request passed on to someone's code behind a reverse proxy (a preview's sandbox port, a published
 * server): the body streams both ways, hop-by-hop headers go in both directions, the answer is asked for
 * uncompressed, and only cookies scoped to the visitor's host come back. Shared by the preview proxy and the
 * proxy in front of published servers, so both clean a request and its answer the same way.
 *
 * @example
 * const { res, headers } = await forwardHttp(req, "127.0.0.1:5173/path?q=1", { host: "todo.sites.example.com" });
 * return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
 */
import { HOP_HEADERS, keepCookiesOnHost } from "./proxy-headers";

export type ForwardOptions = {
  /** The visitor's Host header: the only host a cookie from upstream may be scoped to. */
  host: string;
  /** Edits the outgoing headers once the hop-by-hop ones are gone (forwarded-for headers, the proxy's own cookie out). */
  editRequest?: (headers: Headers) => void;
  /** Answer headers dropped besides the hop-by-hop ones and `content-encoding`. */
  dropResponse?: string[];
  /** A cookie the proxy itself sets, which the answer may not replace or clear. */
  reservedCookie?: string;
};

/**
 * Fetches `http://<upstream>` (host:port plus path and query) with the visitor's method, headers and body, and
 * returns the raw answer with the headers to send on. Throws when upstream does not answer.
 */
export async function forwardHttp(req: Request, upstream: string, o: ForwardOptions): Promise<{ res: Response; headers: Headers }> {
  const headers = new Headers(req.headers);
  for (const h of HOP_HEADERS) headers.delete(h);
  o.editRequest?.(headers);
  // Bun's fetch would decompress an encoded answer and leave its headers lying; ask for it plain (loopback, so
  // no cost), which also keeps a Content-Length true.
  headers.set("accept-encoding", "identity");
  const res = await fetch(`http://${upstream}`, {
    method: req.method,
    headers,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
    redirect: "manual",
  });
  const out = new Headers(res.headers);
  for (const h of HOP_HEADERS) out.delete(h);
  out.delete("content-encoding");
  for (const h of o.dropResponse ?? []) out.delete(h);
  keepCookiesOnHost(out, o.host, o.reservedCookie);
  return { res, headers: out };
}
