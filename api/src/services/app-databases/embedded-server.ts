/**
 * Project databases with nothing installed: each project gets its own PGlite data folder under
 * DATA_DIR/app-databases/<projectId>, copied from a template made once (initdb takes seconds, a copy a fraction
 * of one). A project's PGlite runs only while connections use it: started by the first one, stopped after
 * APP idle time with none. Each runs on a thread of its own (db/pglite-thread.ts), so a slow statement holds
 * only that project's database; a CancelRequest (the run_sql and query-box timer) ends one by restarting the
 * thread from the folder. Its session runs as the non-superuser role `app`, owner of database `app`.
 *
 * Starting a PGlite takes seconds, so once a project has made a database this process keeps one spare running
 * on a fresh copy of the template (under .spares/): the next project's database is that spare, its folder a
 * link to the spare's, and its first query is answered at once. The spare is replaced in the background.
 * APP_DATABASE_SPARE=0 turns this off (the test suites do: each of their processes would pay a start for nothing).
 *
 * What isolation holds: every project has its own PGlite and folder, and a gateway leads to one project only,
 * so no credentials reach another project's data or the app builder's. PGlite's session user is its bootstrap
 * superuser (the role is applied with SET ROLE), so a client that runs RESET ROLE is superuser of its own
 * PGlite; even then it has no programs to run (COPY … TO PROGRAM does nothing in WebAssembly) and its file
 * functions see only PGlite's in-memory file system and its own data folder.
 *
 * @example
 * const server = createEmbeddedServer({ dir: "/srv/data/app-databases", idleMs: 60_000, logger });
 * await server.create(id);
 * const { target, release } = await server.open(id); // { path: "/tmp/app-pglite-…/<id>/.s.PGSQL.5432" }
 */
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPgliteTemplate, startProjectPglite } from "../../db/embedded";
import type { PgliteThread } from "../../db/pglite-thread";
import { makePrivate, privateDir } from "../../lib/private-files";
import type { Logger } from "../../lib/logger";
import { EMBEDDED_NAMES } from "./names";
import { roleClient } from "./postgres-server";
import type { DatabaseIdentity, DatabaseServer } from "./types";

const { name, role } = EMBEDDED_NAMES;
const TEMPLATE_SETUP = [
  `create role ${role} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls`,
  `create database ${name} owner ${role}`,
  `revoke all on database ${name} from public`,
  `grant connect, temporary on database ${name} to ${role}`,
  `revoke connect on database postgres from public`,
  `revoke connect on database template1 from public`,
];

type Running = { pglite: Promise<PgliteThread>; users: number; idle: ReturnType<typeof setTimeout> | null };
type Spare = { dir: string; entry: Running };

export type EmbeddedServer = DatabaseServer & {
  warm(): Promise<void>;
  /** Tests and benchmarks: waits for the spare being made, if any; true when one is ready. */
  spareReady(): Promise<boolean>;
};

export function createEmbeddedServer(o: {
  dir: string;
  idleMs: number;
  spare?: boolean;
  logger: Logger;
  /** The template to copy from (default `<dir>/.template`): production's databases share development's. */
  templateDir?: string;
}): EmbeddedServer {
  const templateDir = o.templateDir ?? join(o.dir, ".template");
  const socketRoot = mkdtempSync(join(tmpdir(), "app-pglite-"));
  const running = new Map<string, Running>();
  let template: Promise<void> | null = null;
  let spare: Promise<Spare | null> | null = null;
  let closed = false;
  const folder = (projectId: string) => join(o.dir, projectId);

  const ensureTemplate = () =>
    (template ??= (async () => {
      privateDir(o.dir);
      if (existsSync(templateDir)) return;
      const building = join(o.dir, `.template-${crypto.randomUUID()}`);
      await createPgliteTemplate(building, TEMPLATE_SETUP);
      try {
        renameSync(building, templateDir);
      } catch (error) {
        // Another server sharing the template (production's, development's) made it first.
        rmSync(building, { recursive: true, force: true });
        if (!existsSync(templateDir)) throw error;
        return;
      }
      makePrivate(templateDir);
    })().catch((error) => {
      template = null;
      throw error;
    }));

  const stop = async (projectId: string) => {
    const entry = running.get(projectId);
    if (!entry) return;
    running.delete(projectId);
    if (entry.idle) clearTimeout(entry.idle);
    await (await entry.pglite.catch(() => null))?.stop();
  };

  /** A PGlite on `dataDir`, serving a socket of its own under socketRoot. */
  const startAt = (dataDir: string, socketName: string): Running => {
    const dir = join(socketRoot, socketName);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const pglite = startProjectPglite({ dataDir, socketPath: join(dir, ".s.PGSQL.5432"), username: role, database: name, maxConnections: 200 });
    return { pglite, users: 0, idle: null };
  };

  const start = (projectId: string): Running => {
    let entry = running.get(projectId);
    if (entry) return entry;
    entry = startAt(folder(projectId), projectId.replace(/-/g, ""));
    running.set(projectId, entry);
    entry.pglite.catch(() => running.delete(projectId));
    return entry;
  };

  const stopAfterIdle = (projectId: string, entry: Running) => {
    entry.idle = setTimeout(() => void stop(projectId).catch((e) => o.logger.warn("project database not stopped", { error: String(e) })), o.idleMs);
    entry.idle.unref?.();
  };

  /** Starts the next spare in the background (one at a time); a failure only means the next project starts cold. */
  const makeSpare = () => {
    if (spare || closed || o.spare === false) return;
    spare = (async () => {
      await ensureTemplate();
      const id = crypto.randomUUID().replace(/-/g, "");
      const dir = join(o.dir, ".spares", id);
      mkdirSync(join(o.dir, ".spares"), { recursive: true, mode: 0o700 });
      cpSync(templateDir, dir, { recursive: true });
      const entry = startAt(dir, `spare-${id}`);
      // One session as the role, with what a first connection asks (its size, a catalog read), so the caches a
      // fresh PGlite fills on its first queries are warm before a project takes it.
      const sql = roleClient({ path: (await entry.pglite).socketPath }, { projectId: id, ...EMBEDDED_NAMES, password: "" }, 1);
      try {
        await sql`select pg_database_size(current_database()), (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public')`;
      } finally {
        await sql.end({ timeout: 2 }).catch(() => {});
      }
      return { dir, entry };
    })().catch((error) => {
      o.logger.warn("spare project database not started", { error: String(error) });
      return null;
    });
  };

  /** The spare, if one is ready now (never waited for: a cold start is no slower than waiting on a spare's). */
  const takeSpare = async (): Promise<Spare | null> => {
    if (!spare) return null;
    const ready = await Promise.race([spare, Promise.resolve(undefined)]);
    if (ready === undefined) return null;
    spare = null;
    return ready;
  };

  /** Holds the project's PGlite open while `fn` runs, through its own socket as the role. */
  const asRole = async <T>(id: DatabaseIdentity, fn: (sql: ReturnType<typeof roleClient>) => Promise<T>): Promise<T> => {
    const { target, release } = await open(id);
    const sql = roleClient(target, id, 1);
    try {
      return await fn(sql);
    } finally {
      await sql.end({ timeout: 2 }).catch(() => {});
      release();
    }
  };

  const open = async (id: DatabaseIdentity) => {
    const entry = start(id.projectId);
    entry.users++;
    if (entry.idle) clearTimeout(entry.idle), (entry.idle = null);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--entry.users > 0 || running.get(id.projectId) !== entry) return;
      stopAfterIdle(id.projectId, entry);
    };
    try {
      return { target: { path: (await entry.pglite).socketPath }, release };
    } catch (error) {
      release();
      throw error;
    }
  };

  return {
    kind: "embedded",
    /** Builds the template ahead of the first project (start-up calls it in the background). */
    warm: () => ensureTemplate(),
    spareReady: async () => Boolean(await spare),
    async create(id) {
      if (existsSync(folder(id.projectId))) return;
      const ready = await takeSpare();
      if (ready && !running.has(id.projectId)) {
        try {
          // A link, not a move: the spare's PGlite keeps its files open under the path it started on.
          symlinkSync(join(".spares", ready.dir.split("/").at(-1)!), folder(id.projectId));
          running.set(id.projectId, ready.entry);
          stopAfterIdle(id.projectId, ready.entry);
          makeSpare();
          return;
        } catch (error) {
          await (await ready.entry.pglite.catch(() => null))?.stop();
          rmSync(ready.dir, { recursive: true, force: true });
          if (existsSync(folder(id.projectId))) return;
          o.logger.warn("spare project database not used", { error: String(error) });
        }
      }
      await ensureTemplate();
      const copy = join(o.dir, `.copy-${crypto.randomUUID()}`);
      cpSync(templateDir, copy, { recursive: true });
      try {
        renameSync(copy, folder(id.projectId));
      } catch (error) {
        rmSync(copy, { recursive: true, force: true });
        if (!existsSync(folder(id.projectId))) throw error;
      }
      makeSpare();
    },
    async drop(id) {
      await stop(id.projectId);
      const path = folder(id.projectId);
      // A project made from a spare: its folder is a link to the spare's; both go.
      if (existsSync(path) && lstatSync(path).isSymbolicLink()) rmSync(realpathSync(path), { recursive: true, force: true });
      rmSync(path, { recursive: true, force: true });
    },
    size: (id) => asRole(id, async (sql) => Number((await sql`select pg_database_size(current_database())::float8 as bytes`)[0]!.bytes)),
    setReadOnly: (id, readOnly) =>
      asRole(id, async (sql) => {
        const value = readOnly ? "on" : "off";
        await sql.unsafe(`alter database ${name} set default_transaction_read_only = ${value}`);
        // One PGlite session serves every connection: setting it here reaches them all at once.
        await sql.unsafe(`set default_transaction_read_only = ${value}`);
      }),
    open,
    async cancel(projectId) {
      const entry = running.get(projectId);
      const pglite = entry && (await entry.pglite.catch(() => null));
      if (pglite && (await pglite.interrupt())) o.logger.warn("project database restarted to end a statement past its time limit", { projectId });
    },
    publicAddress: () => null,
    async close() {
      closed = true;
      const left = await spare?.catch(() => null);
      if (left) {
        await (await left.entry.pglite.catch(() => null))?.stop();
        rmSync(left.dir, { recursive: true, force: true });
      }
      await Promise.all([...running.keys()].map((projectId) => stop(projectId).catch(() => {})));
      rmSync(socketRoot, { recursive: true, force: true });
    },
  };
}
