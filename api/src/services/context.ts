/** What every service function needs: the database, the object store and a logger. No HTTP here. */
import type { Sql } from "../db/client";
import type { Logger } from "../lib/logger";
import type { ObjectStore } from "../storage/types";

export type ServiceContext = { sql: Sql; store: ObjectStore; logger: Logger };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else can only be "not found", and must never reach a uuid column. */
export const isUuid = (id: string) => UUID.test(id);

/** Object-store prefix of everything a project owns; deleting the project deletes the prefix. */
export const projectPrefix = (projectId: string) => `projects/${projectId}/`;
