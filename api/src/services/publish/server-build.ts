/**
 * A server deployment's publish (issue 22): production's migrations first (a failing one stops here, the live
 * deployment untouched), then the server built and started in a sandbox of its own, live only once it answers.
 * Its recorded files are the version's (its source), kept so a wake or a rollback can build it again.
 *
 * @example
 * const built = await publishServer(deps, { ...ids, files: version.manifest }, log);
 * // { manifest, bytes, migrations: ["001_init.sql"] }
 */
import type { Manifest } from "../../db/versions";
import type { ServiceContext } from "../context";
import type { ServerRuntime } from "../server-deployments/runtime";
import type { BuildLog } from "./build-log";
import { staticManifest } from "./store-files";
import { applyProductionMigrations } from "./production-migrations";

export async function publishServer(
  deps: ServiceContext & { servers: ServerRuntime },
  d: { deploymentId: string; projectId: string; ownerId: string; files: Manifest },
  log: BuildLog,
): Promise<{ manifest: Manifest; bytes: number; migrations: string[] }> {
  log.write("A start script in package.json: publishing as a server.\n");
  const migrations = await applyProductionMigrations(deps, d.projectId, d.files, log);
  log.write(migrations.length ? `Production has migrations: ${migrations.join(", ")}.\n` : "No migrations in db/migrations.\n");
  // The source as it is, minus dot-files (.env files never go into a deployment).
  const { manifest, bytes } = staticManifest(d.files);
  await deps.servers.launch({ ...d, files: manifest }, (text) => log.write(text));
  return { manifest, bytes, migrations };
}
