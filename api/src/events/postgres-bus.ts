/**
 * EventBus over PostgreSQL LISTEN/NOTIFY, so every API instance on one database sees every file event.
 * Payloads are metadata only (well under NOTIFY's 8000-byte limit). Delivery to this instance's own
 * subscribers also goes through the database, so all instances see events in the same order.
 */
import type { Sql } from "../db/client";
import type { Logger } from "../lib/logger";
import type { BusEvent, EventBus } from "./types";

const CHANNEL = "app_file_events";

export async function createPostgresBus(sql: Sql, logger: Logger): Promise<EventBus> {
  const handlers = new Set<(event: BusEvent) => void>();
  const listener = await sql.listen(CHANNEL, (payload) => {
    let event: BusEvent;
    try {
      event = JSON.parse(payload) as BusEvent;
    } catch {
      return logger.warn("unreadable file event", { payload: payload.slice(0, 200) });
    }
    for (const handler of handlers) handler(event);
  });
  return {
    kind: "postgres",
    async publish(event) {
      await sql.notify(CHANNEL, JSON.stringify(event));
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
      await listener.unlisten();
    },
  };
}
