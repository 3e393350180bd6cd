/**
 * EventBus over PostgreSQL LISTEN/NOTIFY, so every API instance on one database sees every file event.
 * Payloads are metadata only (well under NOTIFY's 8000-byte limit; build log chunks are cut to fit).
 * File events reach this instance's own subscribers through the database too, so all instances see them in
 * the same order; site events (below) reach them at once.
 */
import type { Sql } from "../db/client";
import type { Logger } from "../lib/logger";
import type { BusEvent, EventBus, RunBusEvent, SiteBusEvent } from "./types";

const CHANNEL = "app_file_events";
const SITE_CHANNEL = "app_site_events";
const RUN_CHANNEL = "app_run_events";

/**
 * `onListen` runs each time the LISTEN is (re)established: postgres.js listens again by itself on a new
 * connection when the old one dies (with back-off while the server is down), and says so through this.
 */
async function channel<T>(sql: Sql, name: string, logger: Logger, onListen: () => void = () => {}) {
  const handlers = new Set<(event: T) => void>();
  const listener = await sql.listen(
    name,
    (payload) => {
      let event: T;
      try {
        event = JSON.parse(payload) as T;
      } catch {
        return logger.warn("unreadable bus event", { channel: name, payload: payload.slice(0, 200) });
      }
      for (const handler of handlers) handler(event);
    },
    onListen,
  );
  return {
    publish: async (event: T) => void (await sql.notify(name, JSON.stringify(event))),
    subscribe(handler: (event: T) => void) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    async close() {
      handlers.clear();
      await listener.unlisten();
    },
  };
}

/**
 * Site events reach this instance's own subscribers at once, not after the round trip through the
 * database: a rollback or unpublish answers, and the very next request to this instance must see it.
 * Their order across instances does not matter (each only drops a cache entry or appends to a log).
 */
async function siteChannel(sql: Sql, logger: Logger) {
  const from = crypto.randomUUID();
  const local = new Set<(event: SiteBusEvent) => void>();
  const remote = await channel<SiteBusEvent & { from?: string }>(sql, SITE_CHANNEL, logger);
  remote.subscribe(({ from: sender, ...event }) => {
    if (sender === from) return;
    for (const handler of local) handler(event as SiteBusEvent);
  });
  return {
    async publish(event: SiteBusEvent) {
      for (const handler of local) handler(event);
      await remote.publish({ ...event, from });
    },
    subscribe(handler: (event: SiteBusEvent) => void) {
      local.add(handler);
      return () => void local.delete(handler);
    },
    close: () => remote.close(),
  };
}

export async function createPostgresBus(sql: Sql, logger: Logger): Promise<EventBus> {
  // Both channels listen on postgres.js's one listening connection, so they drop and come back together:
  // the file channel's LISTEN stands for both. Its first LISTEN is the start, every later one a comeback.
  const resync = new Set<() => void>();
  let listens = 0;
  const onListen = () => {
    if (listens++ === 0) return;
    logger.warn("event bus connection came back; events sent while it was down are lost, so subscribers resync", { handlers: resync.size });
    for (const handler of resync) {
      try {
        handler();
      } catch (error) {
        logger.warn("event bus resync handler failed", { error: String(error) });
      }
    }
  };
  const files = await channel<BusEvent>(sql, CHANNEL, logger, onListen);
  const sites = await siteChannel(sql, logger);
  const runs = await channel<RunBusEvent>(sql, RUN_CHANNEL, logger);
  return {
    kind: "postgres",
    publish: files.publish,
    subscribe: files.subscribe,
    publishSite: sites.publish,
    subscribeSite: sites.subscribe,
    publishRun: runs.publish,
    subscribeRun: runs.subscribe,
    onResync(handler) {
      resync.add(handler);
      return () => void resync.delete(handler);
    },
    async close() {
      resync.clear();
      await files.close();
      await sites.close();
      await runs.close();
    },
  };
}
