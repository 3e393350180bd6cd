/**
 * A project's development database in its versions (issue 21, item 4). A version records the data as it was:
 * "none" (no database, or one with no tables), "included" (a dump of schema and rows, gzipped JSON stored as a
 * blob like any file content, named by its hash), or "too_large" (over APP_DATABASE_VERSION_MAX_MB: History says
 * "data not included", and restoring that version leaves the data alone). Restoring a version, or undoing a run,
 * puts the dump back.
 *
 * Dumping costs a pass over the database, so it is skipped when nothing can have changed: an embedded database
 * is reached only through this process's gateways, and with no connection opened since the last dump, that
 * dump still holds (`changeMark`). Elsewhere the dump is taken and its hash compared.
 *
 * @example
 * const data = await captureData(ctx, projectId, latest?.data); // { status: "included", sha256 }
 * await restoreData(ctx, projectId, version.data, data);         // "restored" | "unchanged" | "not_included"
 */
import { findAppDatabase } from "../../db/app-databases";
import * as blobs from "../../db/blobs";
import type { DataState } from "../../db/versions";
import { AppError } from "../../lib/errors";
import type { AppDatabases } from "../app-databases";
import { type DatabaseDump, dumpDatabase, dumpFromBytes, dumpToBytes, restoreDatabase } from "../app-data/dump";
import { sha256Hex } from "../content-blobs";
import type { ServiceContext } from "../context";

export type { DataState } from "../../db/versions";

export const NO_DATA: DataState = { status: "none" };
const EMPTY_DUMP: DatabaseDump = { version: 1, sequences: [], tables: [], indexes: [], data: [] };

export const sameData = (a: DataState, b: DataState) => a.status === b.status && a.sha256 === b.sha256;

/** The last dump per project and the change mark it was taken at (embedded databases only; see above). */
const lastCapture = new Map<string, { mark: number; state: DataState }>();

/**
 * The project's data as a version records it now. `baseline` (the newest version's data, which retention keeps)
 * saves the write when the dump is the same bytes.
 */
export async function captureData(ctx: ServiceContext, projectId: string, baseline?: DataState): Promise<DataState> {
  const host = ctx.appDatabases;
  if (!host || !(await findAppDatabase(ctx.sql, projectId))) return NO_DATA;
  const mark = host.changeMark(projectId);
  const cached = lastCapture.get(projectId);
  if (mark !== null && cached?.mark === mark) return cached.state;
  const state = await dumpState(ctx, host, projectId, baseline);
  if (mark !== null) lastCapture.set(projectId, { mark, state });
  return state;
}

async function dumpState(ctx: ServiceContext, host: AppDatabases, projectId: string, baseline?: DataState): Promise<DataState> {
  if ((await host.size(projectId)) > host.versionMaxBytes) return { status: "too_large" };
  // Straight to the database, past the gateway: a dump is not a change, so it leaves the change mark alone.
  const { sql, release } = await host.directClient(projectId);
  let dump: DatabaseDump;
  try {
    dump = await dumpDatabase(sql);
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
    release();
  }
  if (dump.tables.length === 0 && dump.sequences.length === 0) return NO_DATA;
  const bytes = dumpToBytes(dump);
  const sha256 = sha256Hex(bytes);
  const missing = await blobs.touchBlobs(ctx.sql, [{ sha256, size: bytes.length }]);
  if (baseline?.sha256 !== sha256 || missing.size > 0) {
    await ctx.store.put(blobs.blobKey(sha256), bytes);
    await blobs.markStored(ctx.sql, [sha256]);
  }
  return { status: "included", sha256 };
}

export type DataRestore = "restored" | "unchanged" | "not_included";

/**
 * Puts the data back as `target` recorded it, replacing the public schema in one transaction (so a failure
 * changes nothing). `current` is the data as it is now (captured just before): equal means nothing to do.
 */
export async function restoreData(ctx: ServiceContext, projectId: string, target: DataState, current: DataState): Promise<DataRestore> {
  if (target.status === "too_large") return "not_included";
  if (sameData(target, current)) return "unchanged";
  const host = ctx.appDatabases;
  if (!host)
    throw new AppError(503, "dependency_unavailable", "This version holds database data, but project databases are not set up in this server process.");
  let dump = EMPTY_DUMP;
  if (target.status === "included") {
    const bytes = await ctx.store.get(blobs.blobKey(target.sha256!));
    if (!bytes) throw new AppError(500, "internal", "This version's database data is missing from storage; nothing was restored.");
    dump = dumpFromBytes(bytes);
  }
  const { sql, release } = await host.directClient(projectId);
  try {
    await restoreDatabase(sql, dump);
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
    release();
  }
  // Written past the gateway, so the mark still reads as before: the restored state is what it now holds.
  const mark = host.changeMark(projectId);
  if (mark !== null) lastCapture.set(projectId, { mark, state: target });
  else lastCapture.delete(projectId);
  return "restored";
}
