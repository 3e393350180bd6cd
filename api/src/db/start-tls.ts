/**
 * PostgreSQL's way into TLS on a fresh TCP connection: an SSLRequest, a one-byte answer ('S' = go ahead),
 * then the TLS handshake on the same socket. postgres.js can do this itself, but then it reads and writes
 * through a TLS socket it creates internally (under Bun the TCP socket it wraps sees none of that traffic),
 * out of reach of query-watchdog.ts. Done here instead, postgres.js (told `ssl: false`) is handed a socket
 * that already speaks TLS, and the watchdog reads its plaintext like any other connection's.
 *
 * The `ssl` setting means what it means to postgres.js: 'require', 'allow' and 'prefer' encrypt without
 * checking the certificate, 'prefer' stays unencrypted when the server declines, 'verify-full' or `true`
 * check it against the system CAs and the host name, an object is passed to tls.connect as is.
 */
import net from "node:net";
import tls from "node:tls";

export type SslSetting = "require" | "allow" | "prefer" | "verify-full" | boolean | object;

const SSL_REQUEST = new Uint8Array([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]); // length 8, code 80877103
const GO_AHEAD = 0x53; // 'S'

/** Resolves with the encrypted socket (or `raw` itself for 'prefer' when the server has no TLS). */
export function startTls(raw: net.Socket, ssl: SslSetting, options: { host: string; timeoutMs: number }): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    let socket: net.Socket = raw;
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      raw.removeAllListeners();
      socket.destroy();
      raw.destroy();
      reject(error);
    };
    const onError = (error: Error) => fail(error);
    const onClose = () => fail(Object.assign(new Error("the database closed the connection while it was being secured"), { code: "CONNECTION_CLOSED" }));
    const timer = setTimeout(() => {
      fail(Object.assign(new Error(`the database did not complete the TLS set-up within ${options.timeoutMs / 1000} s`), { code: "CONNECT_TIMEOUT" }));
    }, options.timeoutMs);
    const done = (secured: net.Socket) => {
      clearTimeout(timer);
      secured.removeListener("error", onError);
      secured.removeListener("close", onClose);
      resolve(secured);
    };

    raw.on("error", onError);
    raw.on("close", onClose);
    raw.once("data", (answer: Uint8Array) => {
      raw.removeAllListeners();
      if (answer[0] !== GO_AHEAD) {
        if (ssl === "prefer") return done(raw);
        return fail(new Error("the database server does not accept TLS connections"));
      }
      socket = tls.connect({ socket: raw, ...tlsOptions(ssl, options.host) });
      socket.on("error", onError);
      socket.on("close", onClose);
      socket.once("secureConnect", () => done(socket));
    });
    raw.write(SSL_REQUEST);
  });
}

function tlsOptions(ssl: SslSetting, host: string): tls.ConnectionOptions {
  const options: tls.ConnectionOptions = { servername: net.isIP(host) ? undefined : host };
  if (ssl === "require" || ssl === "allow" || ssl === "prefer") options.rejectUnauthorized = false;
  else if (typeof ssl === "object") Object.assign(options, ssl);
  return options;
}
