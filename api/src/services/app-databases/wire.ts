/**
 * The few pieces of PostgreSQL's wire protocol (v3) the gateway needs: reading the start-up packet, writing
 * errors and the password request, and rewriting an ErrorResponse's message.
 *
 * @example
 * const startup = parseStartup(packet); // { kind: "startup", params: { user: "app", database: "app" } }
 */

export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;
export const PROTOCOL_3 = 196608;

export type StartupPacket =
  | { kind: "ssl" | "gssenc" }
  | { kind: "cancel"; raw: Buffer }
  | { kind: "startup"; params: Record<string, string>; raw: Buffer }
  | { kind: "unsupported"; code: number };

/** `packet` is one whole start-up packet (its int32 length included). */
export function parseStartup(packet: Buffer): StartupPacket {
  const code = packet.readInt32BE(4);
  if (code === SSL_REQUEST) return { kind: "ssl" };
  if (code === GSSENC_REQUEST) return { kind: "gssenc" };
  if (code === CANCEL_REQUEST) return { kind: "cancel", raw: packet };
  if (code !== PROTOCOL_3) return { kind: "unsupported", code };
  const params: Record<string, string> = {};
  const parts = packet.subarray(8).toString("utf8").split("\0");
  for (let i = 0; i + 1 < parts.length && parts[i] !== ""; i += 2) params[parts[i]!] = parts[i + 1]!;
  return { kind: "startup", params, raw: packet };
}

/** An ErrorResponse ('E') with severity, SQLSTATE and message. */
export function errorResponse(severity: "ERROR" | "FATAL", code: string, message: string): Buffer {
  return typed(
    "E",
    fields([
      ["S", severity],
      ["V", severity],
      ["C", code],
      ["M", message],
    ]),
  );
}

/** AuthenticationCleartextPassword: the client answers with a PasswordMessage ('p'). */
export const cleartextPasswordRequest = () => typed("R", int32(3));

/** Reads the password out of a PasswordMessage's body. */
export const passwordOf = (body: Buffer) => body.toString("utf8").replace(/\0$/, "");

/** The fields of an ErrorResponse or NoticeResponse body, in order. */
export function parseFields(body: Buffer): [string, string][] {
  const out: [string, string][] = [];
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    out.push([String.fromCharCode(body[at]!), body.subarray(at + 1, end).toString("utf8")]);
    at = end + 1;
  }
  return out;
}

/** The same ErrorResponse with its message ('M') replaced. */
export function withMessage(body: Buffer, message: string): Buffer {
  return typed("E", fields(parseFields(body).map(([k, v]) => [k, k === "M" ? message : v] as [string, string])));
}

function fields(list: [string, string][]): Buffer {
  return Buffer.concat([...list.map(([k, v]) => Buffer.from(`${k}${v}\0`, "utf8")), Buffer.from([0])]);
}

function typed(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}
