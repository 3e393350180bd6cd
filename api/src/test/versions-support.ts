/**
 * For the versions tests: the test database with each object store (a local folder, and S3 through
 * s3rver), and a fresh user with one project per test.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { upsertUser } from "../db/users";
import { createMemoryBus } from "../events/memory-bus";
import type { BusEvent } from "../events/types";
import { silentLogger } from "../lib/logger";
import { createLocalStore } from "../storage/local";
import { createS3Store } from "../storage/s3";
import type { ObjectStore } from "../storage/types";
import { S3RVER_CREDENTIALS, startS3Server, type S3TestServer } from "./s3-server";
import { testDb } from "./test-db";
import type { ServiceContext } from "../services/context";
import { createProject } from "../services/projects";

export type StoreKind = "local" | "s3";
export const STORE_KINDS: StoreKind[] = ["local", "s3"];

let s3: Promise<S3TestServer> | null = null;

export async function openStore(kind: StoreKind): Promise<ObjectStore> {
  if (kind === "local") return createLocalStore(mkdtempSync(join(tmpdir(), "versions-store-")));
  s3 ??= startS3Server();
  const server = await s3;
  return createS3Store({ bucket: server.bucket, endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true, ...S3RVER_CREDENTIALS });
}

export async function stopStores(): Promise<void> {
  if (s3) await (await s3).stop();
  s3 = null;
}

export async function serviceContext(store: ObjectStore): Promise<ServiceContext & { published: BusEvent[] }> {
  const db = await testDb();
  const events = createMemoryBus();
  const published: BusEvent[] = [];
  events.subscribe((event) => published.push(event));
  return { sql: db.sql, store, logger: silentLogger, events, published };
}

export async function newProject(ctx: ServiceContext, name = "owner") {
  const ownerId = `${name}-${crypto.randomUUID()}`;
  await upsertUser(ctx.sql, { id: ownerId, email: `${name}@example.com`, displayName: name, photoURL: null });
  const project = await createProject(ctx, ownerId, { name: "Versions test" });
  return { ownerId, projectId: project.id };
}

export const dbLabel = () => (process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite");
