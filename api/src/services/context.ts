/** What every service function needs: the database, the object store and a logger. No HTTP here. */
import type { FileEvent } from "@shared/events/file-events";
import type { Sql } from "../db/client";
import type { BusEvent, EventBus } from "../events/types";
import type { Config } from "../lib/config";
import type { Logger } from "../lib/logger";
import type { ObjectStore } from "../storage/types";

export type ServiceContext = {
  sql: Sql;
  store: ObjectStore;
  logger: Logger;
  events: EventBus;
  /** Who is acting: the API (a person or the agent) or the sandbox sync writing back what commands made. */
  origin?: BusEvent["origin"];
  /** Per-project file count and size limits; absent means none (every server and test app passes its config). */
  config?: Pick<Config, "limits">;
};

/** Publishes a file event; a failure to publish never fails the change itself (clients also poll). */
export async function publishFileEvent(ctx: ServiceContext, event: FileEvent & { ownerId: string }): Promise<void> {
  try {
    await ctx.events.publish({ ...event, origin: ctx.origin ?? "api" });
  } catch (error) {
    ctx.logger.warn("file event not published", { type: event.type, error: String(error) });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else can only be "not found", and must never reach a uuid column. */
export const isUuid = (id: string) => UUID.test(id);

/** Object-store prefix of everything a project owns; deleting the project deletes the prefix. */
export const projectPrefix = (projectId: string) => `projects/${projectId}/`;
