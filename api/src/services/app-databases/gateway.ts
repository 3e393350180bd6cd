/**
 * A Unix-socket listener that leads to one project's database and nowhere else. It answers TLS requests with
 * "no" (the socket never leaves the host or the sandbox), refuses a start-up naming another role or database,
 * checks the password itself when the server behind it does not (PGlite takes anyone), then splices bytes
 * both ways. Replies are read as PostgreSQL messages so a read-only error (SQLSTATE 25006) can be reworded to
 * name APP_DATABASE_MAX_MB while the database is over it.
 *
 * @example
 * const gw = await startGateway({ path: "/run/x/.s.PGSQL.5432", connect: () => upstreamFor(projectId), logger });
 * // postgres({ path: gw.path, username: role, password, database: name })
 * await gw.close();
 */
import { timingSafeEqual } from "node:crypto";
import { chmodSync, chownSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import type { Logger } from "../../lib/logger";
import type { DatabaseIdentity, UpstreamTarget } from "./types";
import { cleartextPasswordRequest, errorResponse, parseFields, parseStartup, passwordOf, withMessage } from "./wire";

export type GatewayUpstream = {
  identity: DatabaseIdentity;
  /**
   * Whether the gateway checks the password itself: always in practice, because PGlite takes anyone and a
   * PostgreSQL may trust local connections; a server that also asks is answered by the client as usual.
   */
  checkPassword: boolean;
  target: UpstreamTarget;
  /** Called once when the client's connection ends. */
  release(): void;
  /** The wording for read-only errors while over the size limit; null when under it. */
  readOnlyMessage(): string | null;
};

export type Gateway = { path: string; connections(): number; close(): Promise<void> };

const STARTUP_TIMEOUT_MS = 10_000;

export async function startGateway(o: {
  path: string;
  /** Who may connect: the socket's owner (a sandbox's host uid) and mode; default the app's user only. */
  owner?: { uid: number; gid: number };
  connect: () => Promise<GatewayUpstream>;
  /** Handles a CancelRequest for this project (embedded databases); without it, cancel requests are dropped. */
  cancel?: () => Promise<void>;
  logger: Logger;
}): Promise<Gateway> {
  rmSync(o.path, { force: true });
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.once("close", () => open.delete(client));
    serve(client, o.connect, o.cancel).catch((error) => {
      o.logger.debug("project database connection ended", { error: String(error) });
      client.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(o.path, () => resolve()));
  if (o.owner) chownSync(o.path, o.owner.uid, o.owner.gid);
  chmodSync(o.path, 0o600);
  return {
    path: o.path,
    connections: () => open.size,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(o.path, { force: true });
    },
  };
}

/** Reads whole start-up packets and typed messages off a socket that is not yet spliced. */
function reader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let ended = false;
  const onData = (chunk: Buffer) => ((buffered = Buffer.concat([buffered, chunk])), wake?.());
  const onEnd = () => ((ended = true), wake?.());
  socket.on("data", onData).once("end", onEnd).once("close", onEnd);
  const take = async (n: number) => {
    while (buffered.length < n) {
      if (ended) throw new Error("client closed during start-up");
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };
  return {
    async packet() {
      const len = (await take(4)).readInt32BE(0);
      if (len < 8 || len > 10_000) throw new Error(`bad start-up length ${len}`);
      return Buffer.concat([lenBuf(len), await take(len - 4)]);
    },
    async message() {
      const head = await take(5);
      const len = head.readInt32BE(1);
      if (len < 4 || len > 10_000) throw new Error(`bad message length ${len}`);
      return { type: String.fromCharCode(head[0]!), body: await take(len - 4) };
    },
    /** Stops reading and hands back what was read past the start-up. */
    detach() {
      socket.off("data", onData).off("end", onEnd).off("close", onEnd);
      return buffered;
    },
  };
}

const lenBuf = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function refuse(client: Socket, code: string, message: string): void {
  client.end(errorResponse("FATAL", code, message));
}

async function serve(client: Socket, connect: () => Promise<GatewayUpstream>, cancel?: () => Promise<void>): Promise<void> {
  const read = reader(client);
  const timer = setTimeout(() => client.destroy(), STARTUP_TIMEOUT_MS);
  let packet = parseStartup(await read.packet());
  // TLS and GSS encryption are declined: the socket is local, and the client then carries on in the clear.
  while (packet.kind === "ssl" || packet.kind === "gssenc") {
    client.write("N");
    packet = parseStartup(await read.packet());
  }
  const startup = packet;
  if (startup.kind !== "startup") {
    // Cancel keys would name another session's backend: not forwarded to a PostgreSQL (statement_timeout bounds
    // queries there). An embedded database is this project's alone, so a cancel there goes to `cancel`.
    clearTimeout(timer);
    if (packet.kind === "cancel" && cancel) await cancel().catch(() => {});
    client.end();
    return;
  }
  const upstream = await connect();
  let released = false;
  const release = () => void (released || ((released = true), upstream.release()));
  client.once("close", release);
  const { identity } = upstream;
  const user = startup.params.user ?? "";
  const database = startup.params.database || user;
  if (user !== identity.role)
    return refuse(client, "28000", `role "${user}" is not permitted here: this connection leads only to this project's database (role "${identity.role}")`);
  if (database !== identity.name)
    return refuse(client, "3D000", `database "${database}" is not reachable here: this connection leads only to the project's database "${identity.name}"`);
  if (upstream.checkPassword) {
    client.write(cleartextPasswordRequest());
    const answer = await read.message();
    if (answer.type !== "p" || !same(passwordOf(answer.body), identity.password)) {
      return refuse(client, "28P01", `password authentication failed for user "${user}"`);
    }
  }
  clearTimeout(timer);
  const server = "path" in upstream.target ? createConnection(upstream.target.path) : createConnection(upstream.target.port, upstream.target.host);
  server.setNoDelay?.(true);
  client.setNoDelay?.(true);
  const rest = read.detach();
  server.write(startup.raw);
  if (rest.length) server.write(rest);
  client.pipe(server);
  server.on("data", replies(client, server, upstream.readOnlyMessage));
  server.once("end", () => client.end());
  server.once("error", () => client.destroy());
  client.once("error", () => server.destroy());
  client.once("close", () => server.destroy());
  server.once("close", () => client.destroy());
}

/**
 * Passes server messages through as they come, holding back only ErrorResponses ('E') until whole, so a
 * read-only error can be reworded. Backpressure: the server socket pauses while the client's buffer is full.
 */
function replies(client: Socket, server: Socket, readOnlyMessage: () => string | null) {
  let pending: Buffer = Buffer.alloc(0);
  // Bytes of the current non-error message still to pass through untouched.
  let passing = 0;
  return (chunk: Buffer) => {
    let data: Buffer = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    pending = Buffer.alloc(0);
    const out: Buffer[] = [];
    while (data.length) {
      if (passing > 0) {
        const n = Math.min(passing, data.length);
        out.push(data.subarray(0, n));
        passing -= n;
        data = data.subarray(n);
        continue;
      }
      if (data.length < 5) {
        pending = data;
        break;
      }
      const type = data[0]!;
      const len = data.readInt32BE(1);
      if (type !== 0x45 /* E */) {
        passing = len + 1;
        continue;
      }
      if (data.length < len + 1) {
        pending = data;
        break;
      }
      const body = data.subarray(5, len + 1);
      const message = readOnlyMessage();
      const code = message ? parseFields(body).find(([k]) => k === "C")?.[1] : undefined;
      out.push(code === "25006" ? withMessage(body, message!) : data.subarray(0, len + 1));
      data = data.subarray(len + 1);
    }
    if (out.length && !client.write(out.length === 1 ? out[0]! : Buffer.concat(out))) {
      server.pause();
      client.once("drain", () => server.resume());
    }
  };
}
