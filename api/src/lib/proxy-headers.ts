/**
 * What a reverse proxy of someone's code must strip: hop-by-hop headers (they describe one connection, not the
 * message), and cookies scoped past the host that set them. Shared by the preview proxy and the proxy in front
 * of published servers.
 *
 * @example
 * for (const h of HOP_HEADERS) headers.delete(h);
 * keepCookiesOnHost(responseHeaders, "todo.sites.example.com");
 */

/** Headers that describe one hop, not the message; never forwarded. */
export const HOP_HEADERS = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"];

/**
 * Someone's code on a host under a shared domain could `Set-Cookie` with a `Domain` attribute and land on the
 * app and every other host alike (cookie tossing, session fixation). Only host-only cookies (no Domain, or
 * exactly the host's own) pass.
 */
export function keepCookiesOnHost(headers: Headers, hostHeader: string, reservedName?: string): void {
  const cookies = headers.getSetCookie();
  if (cookies.length === 0) return;
  const host = hostHeader.toLowerCase().replace(/:\d+$/, "");
  headers.delete("set-cookie");
  for (const cookie of cookies) {
    const domains = cookie
      .split(";")
      .slice(1)
      .map((attr) => attr.trim().split("="))
      .filter(([name]) => name!.trim().toLowerCase() === "domain")
      .map(([, value = ""]) => value.trim().toLowerCase().replace(/^\./, ""));
    // A cookie the proxy itself sets (the preview's access cookie) is the proxy's: the app may not replace or clear it.
    const reserved = reservedName !== undefined && cookie.trimStart().startsWith(`${reservedName}=`);
    if (!reserved && domains.every((d) => d === host)) headers.append("set-cookie", cookie);
  }
}
