/** What every service function needs: the database, the object store and a logger. No HTTP here. */
import type { FileEvent } from "@shared/events/file-events";
import type { Sql } from "../db/client";
import type { BusEvent, EventBus } from "../events/types";
import type { Config } from "../lib/config";
import type { Logger } from "../lib/logger";
import type { ObjectStore } from "../storage/types";
import type { AppDatabases } from "./app-databases/host";
import type { PageBrowser } from "./chat-runs/page-browser";

/**
 * How the file service hands a change to the project's sandbox on this instance, with the bytes it already
 * holds (so nothing is read back from storage). Defined here rather than imported from the sandbox service,
 * which itself writes through the file service. Implementations never reject: storage is the source of truth,
 * and a sandbox that missed a write is refilled from storage when it is next attached.
 */
export interface SandboxSync {
  /** Tells this instance's events apart: a file event carrying it was already pushed here. */
  readonly id: string;
  written(projectId: string, path: string, bytes: Uint8Array): Promise<void>;
  removed(projectId: string, path: string): Promise<void>;
  renamed(projectId: string, from: string, to: string): Promise<void>;
}

export type ServiceContext = {
  sql: Sql;
  store: ObjectStore;
  logger: Logger;
  events: EventBus;
  /** Who is acting: the API (a person or the agent) or the sandbox sync writing back what commands made. */
  origin?: BusEvent["origin"];
  /** Per-project file count and size limits; absent means none (every server and test app passes its config). */
  config?: Pick<Config, "limits">;
  /** Pushes file changes into the project's attached sandbox; absent means only the file events carry them. */
  sandboxSync?: SandboxSync;
  /** Each project's own development database (services/app-databases); absent means none on this process. */
  appDatabases?: AppDatabases;
  /** The headless browser the agent's check runs an app's page in when no preview is open; absent means none. */
  pageBrowser?: PageBrowser;
  /** Each project's production database (made at its first server publish); no agent tool is given it. */
  productionDatabases?: AppDatabases;
};

/**
 * Publishes a file event and hands the change to this instance's sandbox (both awaited, so a command run right
 * after the write sees it). A failure to publish never fails the change itself (clients also poll).
 */
export async function publishFileEvent(
  ctx: ServiceContext,
  event: FileEvent & { ownerId: string },
  toSandbox?: (sync: SandboxSync) => Promise<void>,
): Promise<void> {
  const sync = toSandbox ? ctx.sandboxSync : undefined;
  // Published first, so browsers hear of the change without waiting for the sandbox write.
  const published = ctx.events
    .publish({ ...event, origin: ctx.origin ?? "api", ...(sync ? { pushedBy: sync.id } : {}) })
    .catch((error) => ctx.logger.warn("file event not published", { type: event.type, error: String(error) }));
  const pushed = sync
    ? toSandbox!(sync).catch((error) => ctx.logger.warn("file change not pushed to the sandbox", { type: event.type, error: String(error) }))
    : null;
  await Promise.all([published, pushed]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else can only be "not found", and must never reach a uuid column. */
export const isUuid = (id: string) => UUID.test(id);

/** Object-store prefix of everything a project owns; deleting the project deletes the prefix. */
export const projectPrefix = (projectId: string) => `projects/${projectId}/`;
