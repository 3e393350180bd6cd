/**
 * The embedded server's spare: after a project made its database, the next project's database is a PGlite already
 * running (its folder a link to the spare's), usable as the role at once; dropping it removes the link and the
 * spare's folder; closing the server leaves no spare behind. Uses the template the test helper caches.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "../../lib/logger";
import { createEmbeddedServer, type EmbeddedServer } from "./embedded-server";
import { EMBEDDED_NAMES } from "./names";
import { roleClient } from "./postgres-server";

const CACHED_TEMPLATE = join(tmpdir(), "app-databases-test-template-pglite-0.5");
let dir: string;
let server: EmbeddedServer;
const identity = (projectId: string) => ({ projectId, ...EMBEDDED_NAMES, password: "unused-by-pglite" });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "embedded-spare-"));
  if (existsSync(CACHED_TEMPLATE)) cpSync(CACHED_TEMPLATE, join(dir, ".template"), { recursive: true });
  server = createEmbeddedServer({ dir, idleMs: 60_000, logger: silentLogger });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the second project's database is the spare already running; drop and close leave nothing behind", async () => {
  expect(await server.spareReady()).toBe(false); // none before any project made a database
  const first = crypto.randomUUID();
  await server.create(identity(first));
  expect(lstatSync(join(dir, first)).isSymbolicLink()).toBe(false); // made cold, from the template
  expect(await server.spareReady()).toBe(true);

  const second = crypto.randomUUID();
  await server.create(identity(second));
  expect(lstatSync(join(dir, second)).isSymbolicLink()).toBe(true);
  const { target, release } = await server.open(identity(second));
  const sql = roleClient(target, identity(second), 1);
  await sql`create table notes (body text)`;
  await sql`insert into notes values ('kept')`;
  expect(await sql`select current_user as who, body from notes`).toEqual([{ who: EMBEDDED_NAMES.role, body: "kept" }] as never);
  await sql.end();
  release();

  expect(await server.spareReady()).toBe(true); // replaced in the background
  const spares = () => readdirSync(join(dir, ".spares"));
  expect(spares()).toHaveLength(2); // the second project's, and the new spare
  await server.drop(identity(second));
  expect(existsSync(join(dir, second))).toBe(false);
  expect(spares()).toHaveLength(1);
  await server.drop(identity(first));
  await server.close();
  expect(spares()).toHaveLength(0);
}, 180_000);
