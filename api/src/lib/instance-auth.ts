/**
 * Requests between instances (issue 24, item 2): a preview, terminal or sandbox request that reaches an
 * instance other than its sandbox's owner is sent on to the owner, marked as internal (`x-appbuilder-instance`)
 * and carrying INSTANCE_SECRET (`x-instance-secret`). They arrive on the same port as everyone's, so any
 * request that says it is internal must prove it: a forged or missing secret answers 401 and is logged. An
 * internal request is served where it lands (never forwarded again), and still signs its user in as usual:
 * the secret only vouches that another instance sent it, not who the user is.
 *
 * @example
 * const auth = createInstanceAuth(config.instances.secret, logger);
 * const refused = auth.refuse(req); if (refused) return refused;
 * const res = await forwardToInstance(req, "http://app-2:3000", auth); // null: the owner is unreachable
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { INSTANCE_ID } from "./instance";
import type { Logger } from "./logger";
import { forwardHttp } from "./forward-http";
import { redactPath } from "./redact-path";

/** Names the sending instance; its presence makes a request internal. */
export const INSTANCE_HEADER = "x-appbuilder-instance";
export const SECRET_HEADER = "x-instance-secret";

export type InstanceAuth = {
  /** Whether requests may be forwarded at all (a secret is set). */
  readonly enabled: boolean;
  /** For a request that says it is internal without the right secret: the 401 (logged). Otherwise null. */
  refuse(req: Request): Response | null;
  /** A request another instance sent (checked by `refuse` first): served here, never forwarded again. */
  isInternal(req: Request): boolean;
  /** The headers that make a request internal, to add to one sent to another instance. */
  sign(headers: Headers): void;
};

const digest = (value: string) => createHash("sha256").update(value).digest();

export function createInstanceAuth(secret: string | null, logger: Logger): InstanceAuth {
  const expected = secret === null ? null : digest(secret);
  const holds = (req: Request) => {
    const given = req.headers.get(SECRET_HEADER);
    // Compared as digests: equal lengths for timingSafeEqual, and no timing clue about the secret's length.
    return expected !== null && given !== null && timingSafeEqual(digest(given), expected);
  };
  return {
    enabled: secret !== null,
    refuse(req) {
      if (!req.headers.has(INSTANCE_HEADER) && !req.headers.has(SECRET_HEADER)) return null;
      if (holds(req)) return null;
      logger.warn("internal request refused: forged or missing INSTANCE_SECRET", {
        from: req.headers.get(INSTANCE_HEADER)?.slice(0, 100) ?? null,
        secret: req.headers.has(SECRET_HEADER) ? "wrong" : "missing",
        method: req.method,
        path: redactPath(new URL(req.url).pathname),
      });
      return Response.json(
        { error: "This internal request is not signed with this server's INSTANCE_SECRET; every instance must share the same one.", code: "unauthorized" },
        { status: 401 },
      );
    },
    isInternal: (req) => req.headers.has(INSTANCE_HEADER) && holds(req),
    sign(headers) {
      if (secret === null) throw new Error("no INSTANCE_SECRET: nothing may be forwarded");
      headers.set(INSTANCE_HEADER, INSTANCE_ID);
      headers.set(SECRET_HEADER, secret);
    },
  };
}

/**
 * Sends the request on to the instance at `ownerUrl` (same method, path, query, headers, Host included, so a
 * preview host still names its sandbox there) and hands back its answer as it streams. null when the owner
 * cannot be reached (its process is gone): the caller serves the request itself. `body` replaces the
 * request's own (already read by the caller, so it can still be served here when the owner is gone).
 */
export async function forwardToInstance(req: Request, ownerUrl: string, auth: InstanceAuth, body?: ArrayBuffer | null): Promise<Response | null> {
  const url = new URL(req.url);
  const host = req.headers.get("host") ?? url.host;
  try {
    const { res, headers } = await forwardHttp(req, `${ownerUrl}${url.pathname}${url.search}`, {
      host,
      editRequest: (h) => {
        h.delete("content-length");
        auth.sign(h);
      },
      body,
      signal: req.signal,
    });
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  } catch (error) {
    if (req.signal.aborted) throw error;
    return null;
  }
}
