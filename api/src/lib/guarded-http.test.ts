/**
 * The outbound rules git's HTTP client enforces: address classes (loopback, private, link-local, metadata,
 * IPv4-mapped IPv6), names resolved before any request and the connection pinned to the checked address, and a redirect checked again (a public remote that
 * redirects to 127.0.0.1 or the metadata address is refused; another origin loses the Authorization header).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { checkOutboundUrl, guardedHttp, RefusedUrlError } from "./guarded-http";
import { isPublicAddress } from "./outbound-address";

describe("isPublicAddress", () => {
  test("private, loopback, link-local and metadata ranges are refused, public ones allowed", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a9fe:a9fe",
    ]) {
      expect(isPublicAddress(ip)).toBe(false);
    }
    for (const ip of ["140.82.112.3", "8.8.8.8", "2606:4700::6810:84e5", "::ffff:140.82.112.3"]) expect(isPublicAddress(ip)).toBe(true);
    expect(isPublicAddress("not-an-ip")).toBe(false);
  });
});

describe("checkOutboundUrl", () => {
  const strict = { allowHttp: false, allowPrivateHosts: false };
  test("a name is judged by every address it resolves to", async () => {
    await expect(checkOutboundUrl("https://forge.example/x.git", { ...strict, resolve: async () => ["140.82.112.3"] })).resolves.toBeInstanceOf(URL);
    await expect(checkOutboundUrl("https://forge.example/x.git", { ...strict, resolve: async () => ["140.82.112.3", "10.0.0.5"] })).rejects.toBeInstanceOf(
      RefusedUrlError,
    );
    await expect(checkOutboundUrl("https://metadata.example/", { ...strict, resolve: async () => ["169.254.169.254"] })).rejects.toThrow("metadata");
  });
  test("plain HTTP and credentials in the URL are refused", async () => {
    await expect(checkOutboundUrl("http://forge.example/x.git", { ...strict, resolve: async () => ["140.82.112.3"] })).rejects.toThrow("Only HTTPS");
    await expect(checkOutboundUrl("https://u:p@forge.example/x.git", { ...strict, resolve: async () => ["140.82.112.3"] })).rejects.toThrow("Credentials");
  });
});

describe("redirects", () => {
  const seen: { path: string; authorization: string | null }[] = [];
  const target = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => (seen.push({ path: new URL(req.url).pathname, authorization: req.headers.get("authorization") }), new Response("ok")),
  });
  const redirector = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${target.port}/landed` } }),
  });
  // 127.0.0.2 stands in for a public address: the resolver gives it for every name and the rules allow only it,
  // so the connections stay on this machine while the guard behaves as it would on the internet.
  const standIn = {
    allowHttp: true,
    allowPrivateHosts: false,
    maxResponseBytes: 1 << 20,
    resolve: async () => ["127.0.0.2"],
    isAllowedAddress: (a: string) => a === "127.0.0.2",
  };
  const hosts: string[] = [];
  const forge = Bun.serve({
    port: 0,
    hostname: "127.0.0.2",
    fetch: (req) => {
      hosts.push(req.headers.get("host") ?? "");
      return new URL(req.url).pathname === "/away"
        ? new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${target.port}/landed` } })
        : new Response("forge");
    },
  });
  afterAll(() => {
    target.stop(true);
    redirector.stop(true);
    forge.stop(true);
  });

  test("each hop is checked: a redirect to a refused address stops there", async () => {
    const http = guardedHttp(standIn);
    const before = seen.length;
    await expect(http.request({ url: `http://forge.test:${forge.port}/away` })).rejects.toThrow("loopback, private, link-local or metadata");
    expect(seen.length).toBe(before);
  });

  test("the connection goes to the address that was checked, not to the name looked up again (DNS rebinding)", async () => {
    // No resolver on this machine knows forge.test: the request can only have reached the forge through the
    // checked address, with the name kept in the Host header.
    const res = await guardedHttp(standIn).request({ url: `http://forge.test:${forge.port}/repo.git/info/refs` });
    expect(res.statusCode).toBe(200);
    expect(res.url).toBe(`http://forge.test:${forge.port}/repo.git/info/refs`);
    expect(hosts.at(-1)).toBe(`forge.test:${forge.port}`);
  });

  test("a redirect to another origin drops the Authorization header", async () => {
    const http = guardedHttp({ allowHttp: true, allowPrivateHosts: true, maxResponseBytes: 1 << 20 });
    const res = await http.request({ url: `http://127.0.0.1:${redirector.port}/start`, headers: { Authorization: "Basic c2VjcmV0" } });
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)).toEqual({ path: "/landed", authorization: null });
  });
});
