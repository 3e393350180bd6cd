/**
 * A server deployment's publish (issue 22): production's migrations first (a failing one stops here, the live
 * deployment untouched), then the server built and started in a sandbox of its own, live only once it answers.
 * Its build's output folder (the client assets, e.g. Vite's `dist`) is then read from that sandbox, scanned for
 * secrets like a static site's output (a finding fails the publish unless `allowFindings`), and kept with the
 * deployment (kept-build.ts). Its recorded files are the version's (its source) plus that kept build, so a wake
 * or a rollback whose sandbox is gone starts it again without building.
 *
 * @example
 * const built = await publishServer(deps, { ...ids, files: version.manifest, allowFindings: false }, log);
 * // { manifest, bytes, migrations: ["001_init.sql"] }
 */
import type { Manifest } from "../../db/versions";
import type { Config } from "../../lib/config";
import { keptPathOf } from "../server-deployments/kept-build";
import type { Provisioned } from "../server-deployments/launch";
import type { ServerRuntime } from "../server-deployments/runtime";
import type { BuildLog } from "./build-log";
import { findOutputDir, OUTPUT_CANDIDATES, readOutput } from "./build-output";
import { checkClientFiles, type ClientScanDeps } from "./client-scan";
import { staticManifest, storeDeploymentFiles } from "./store-files";
import { applyProductionMigrations } from "./production-migrations";

type ServerPublishDeps = ClientScanDeps & { servers: ServerRuntime; config: Pick<Config, "sites"> };
type ServerPublish = { deploymentId: string; projectId: string; ownerId: string; files: Manifest; allowFindings: boolean };

export async function publishServer(
  deps: ServerPublishDeps,
  d: ServerPublish,
  log: BuildLog,
): Promise<{ manifest: Manifest; bytes: number; migrations: string[] }> {
  log.write("A start script in package.json: publishing as a server.\n");
  const migrations = await applyProductionMigrations(deps, d.projectId, d.files, log);
  log.write(migrations.length ? `Production has migrations: ${migrations.join(", ")}.\n` : "No migrations in db/migrations.\n");
  // The source as it is, minus dot-files (.env files never go into a deployment).
  const source = staticManifest(d.files);
  const launched = await deps.servers.launch({ deploymentId: d.deploymentId, projectId: d.projectId, ownerId: d.ownerId, files: source.manifest }, (text) =>
    log.write(text),
  );
  try {
    const kept = await keepBuild(deps, d, launched, source.bytes, log);
    return { manifest: { ...source.manifest, ...kept.manifest }, bytes: source.bytes + kept.bytes, migrations };
  } catch (error) {
    // Refused after its server started (a secret in the client assets): that server never goes live.
    await deps.servers.discard(d.deploymentId).catch(() => {});
    throw error;
  }
}

/** The build's output folder: scanned, then stored under `.built/<dir>/`. Nothing when no build ran. */
async function keepBuild(
  deps: ServerPublishDeps,
  d: ServerPublish,
  launched: Provisioned,
  sourceBytes: number,
  log: BuildLog,
): Promise<{ manifest: Manifest; bytes: number }> {
  if (launched.buildOutput === null) return { manifest: {}, bytes: 0 };
  const dir = await findOutputDir(launched.sandbox, launched.buildOutput);
  if (!dir) {
    log.write(`The build left no output folder (looked for ${OUTPUT_CANDIDATES.join(", ")}): nothing to scan or keep; a new sandbox builds again.\n`);
    return { manifest: {}, bytes: 0 };
  }
  const files = await readOutput(launched.sandbox, dir, {
    maxBytes: Math.max(0, deps.config.sites.maxDeploymentBytes - sourceBytes),
    note: (line) => log.write(`${line}\n`),
  });
  // What browsers get from this server: the same check as a static site's output, named as in the project.
  await checkClientFiles(
    deps,
    d,
    files.map((f) => ({ path: `${dir}/${f.path}`, bytes: f.bytes })),
    log,
  );
  const stored = await storeDeploymentFiles(
    deps,
    files.map((f) => ({ path: keptPathOf(dir, f.path), bytes: f.bytes })),
  );
  log.write(`Kept the build's ${dir}/ with the deployment (${files.length} files): a new sandbox starts from it without building.\n`);
  return stored;
}
