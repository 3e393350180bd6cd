/**
 * For the publish tests: an app instance (the Hono app plus its site server) on the shared test database,
 * a second one on the same database and store, requests to a site by its Host header, and waiting for a
 * build to end.
 *
 * @example
 * const a = await publishInstance({ store });
 * const res = await a.site("todo", "/");
 */
import type { Deployment, PublishResult } from "@shared/schemas/publish";
import { createMemoryBus } from "../events/memory-bus";
import { createPostgresBus } from "../events/postgres-bus";
import type { EventBus } from "../events/types";
import { silentLogger } from "../lib/logger";
import { buildsSettled } from "../services/publish/index";
import type { AppDatabases } from "../services/app-databases";
import { createServerProxy } from "../sites/server-proxy";
import { createSiteServer, type SiteServer } from "../sites/site-server";
import type { ObjectStore } from "../storage/types";
import { testApp, type TestUser } from "./test-app";
import { testDb } from "./test-db";

let sharedMemoryBus: EventBus | null = null;

/**
 * A bus like production's: on PostgreSQL each instance has its own LISTEN connection; on PGlite (one
 * process in production) the instances share one in-process bus.
 */
async function instanceBus(): Promise<EventBus> {
  const db = await testDb();
  if (db.kind === "postgres") return createPostgresBus(db.sql, silentLogger);
  sharedMemoryBus ??= createMemoryBus();
  return sharedMemoryBus;
}

export type PublishInstance = Awaited<ReturnType<typeof testApp>> & {
  sites: SiteServer;
  site(slug: string, path: string, headers?: Record<string, string>, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
};

export async function publishInstance(
  o: { store?: ObjectStore; env?: Record<string, string>; productionDatabases?: AppDatabases; appDatabases?: AppDatabases } = {},
): Promise<PublishInstance> {
  const events = await instanceBus();
  const t = await testApp({
    store: o.store,
    env: { RATE_LIMIT_PUBLISH_PER_MINUTE: "0", ...o.env },
    events,
    productionDatabases: o.productionDatabases,
    appDatabases: o.appDatabases,
  });
  const servers = t.deps.servers ? createServerProxy({ runtime: t.deps.servers, logger: silentLogger }) : undefined;
  const sites = createSiteServer({ sql: t.deps.sql, store: t.deps.store, events, logger: silentLogger, domain: t.deps.config.sites.domain, servers });
  return {
    ...t,
    sites,
    async site(slug, path, headers = {}, init = {}) {
      const req = new Request(`http://127.0.0.1${path}`, { ...init, headers: { host: `${slug}.${t.deps.config.sites.domain}:3000`, ...headers } });
      const res = sites.handle(req);
      if (!res) throw new Error("the site server did not take a site host");
      return res;
    },
    async close() {
      sites.close();
      if (events !== sharedMemoryBus) await events.close();
    },
  };
}

/** Waits until every build this process started has ended, then answers the project's deployments. */
export async function deploymentsAfterBuild(user: TestUser, projectId: string): Promise<Deployment[]> {
  await buildsSettled();
  const res = await user.request("GET", `/api/projects/${projectId}/deployments`);
  if (res.status !== 200) throw new Error(`GET deployments: ${res.status} ${await res.text()}`);
  return (await res.json()) as Deployment[];
}

/** Polls `check` (another instance hears of a change a moment later on PostgreSQL). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(25);
  }
}

/** A project of `user`'s holding `files` (path → text), made over HTTP; its id. */
export async function newSiteProject(user: TestUser, name: string, files: Record<string, string>): Promise<string> {
  const res = await user.request("POST", "/api/projects", { name });
  const { id } = (await res.json()) as { id: string };
  for (const [path, content] of Object.entries(files)) {
    const r = await user.request("POST", `/api/files/${id}`, { path, content });
    if (r.status !== 201 && r.status !== 200) throw new Error(`create ${path}: ${r.status} ${await r.text()}`);
  }
  return id;
}

/** POST /api/projects/{id}/publish: its status and body. */
export async function publish(user: TestUser, projectId: string, body: object = {}) {
  const res = await user.request("POST", `/api/projects/${projectId}/publish`, body);
  return { status: res.status, body: (await res.json()) as PublishResult & { error?: string } };
}
