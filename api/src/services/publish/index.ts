/**
 * Publish: a project's build becomes an immutable deployment in the object store, served at
 * `<slug>.<SITES_DOMAIN>` by every instance (api/src/sites/). `publish` answers at once with the new
 * deployment's id; the build runs in the background and reports over the event bus (`deployment.log`,
 * `deployment.status`). A failed build leaves the live deployment as it was. Every function checks that
 * the project is the caller's (404 otherwise).
 *
 * @example
 * const { deploymentId, url } = await publishProject(deps, access, { slug: "todo" });
 */
import type { Deployment, LiveSite, PublishResult, SiteState } from "@shared/schemas/publish";
import * as blobs from "../../db/blobs";
import * as rows from "../../db/deployments";
import { findFileByPath } from "../../db/files";
import { findVersion, type Manifest } from "../../db/versions";
import type { Config } from "../../lib/config";
import type { Drain } from "../../lib/drain";
import { AppError, badRequest, conflict, notFound } from "../../lib/errors";
import { isUuid, type ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { getProject } from "../projects";
import type { ProjectSandboxesService } from "../sandboxes";
import { takeVersion } from "../versions/snapshot";
import { createBuildLog, type BuildLog } from "./build-log";
import { checkClientFiles, type ClientScanDeps } from "./client-scan";
import { OutputError, type OutputFile, readOutput, tooBig } from "./build-output";
import { BuildError, buildScript, runBuild } from "./run-build";
import { slugFromName, slugProblem, withSuffix } from "./slug";
import { staticManifest, storeDeploymentFiles } from "./store-files";
import type { ServerRuntime } from "../server-deployments/runtime";
import { StartError } from "../server-deployments/runtime";
import { packageScripts } from "../server-deployments/launch";
import { MigrationError } from "./production-migrations";
import { publishServer } from "./server-build";

export type PublishDeps = ServiceContext &
  ClientScanDeps & {
    config: Pick<Config, "sites">;
    sandboxes: Pick<ProjectSandboxesService, "ensure" | "templateCache">;
    /** When it is draining (SIGTERM), this instance starts no new build; the ones running finish. */
    drain?: Drain;
    /** Server deployments this instance runs; absent: a project with a start script cannot be published here. */
    servers?: ServerRuntime;
  };

export const siteUrl = (sites: Config["sites"], slug: string) => `${sites.scheme}://${slug}.${sites.domain}${sites.portSuffix}`;

/** Builds still running in this process (tests and shutdown wait on them, shutdown up to DRAIN_TIMEOUT_S). */
const running = new Set<Promise<void>>();
export const buildsSettled = () => Promise.all([...running]);

export async function publishProject(deps: PublishDeps, access: ProjectAccess, input: { slug?: string; allowFindings?: boolean }): Promise<PublishResult> {
  const { projectId } = access;
  deps.drain?.refuseNew("publish");
  const project = await getProject(deps, access);
  const deploymentId = crypto.randomUUID();
  // Stale after the build's own limit plus room for install and upload: its instance must have died.
  const staleSeconds = Math.ceil(deps.config.sites.buildTimeoutMs / 1000) + 15 * 60;
  // The build row is the lock, taken before anything else: a second publish is refused at once, not after
  // it has chosen a name while the first one's quick build may already have finished.
  if (!(await rows.startBuild(deps.sql, { id: deploymentId, projectId: project.id, versionId: null }, staleSeconds))) {
    throw conflict("This project is already being published; wait for that build to finish.");
  }
  let slug: string;
  try {
    slug = await chooseSlug(deps, project.id, project.name, input.slug, deploymentId);
  } catch (error) {
    await rows.dropBuild(deps.sql, deploymentId);
    throw error;
  }
  const url = siteUrl(deps.config.sites, slug);
  const work = build(deps, { access, projectId: project.id, deploymentId, slug, url, allowFindings: input.allowFindings === true }).catch((error) =>
    deps.logger.error("publish failed unexpectedly", { projectId, deploymentId, error: String(error) }),
  );
  running.add(work);
  void work.finally(() => running.delete(work));
  return { deploymentId, url, status: "building" };
}

async function chooseSlug(deps: PublishDeps, projectId: string, projectName: string, wanted: string | undefined, deploymentId: string): Promise<string> {
  const current = await rows.findSite(deps.sql, projectId);
  const taken = () => conflict(`The site name "${wanted}" is taken; choose another.`);
  if (wanted !== undefined) {
    const problem = slugProblem(wanted);
    if (problem) throw badRequest(problem);
    if (current?.slug === wanted) return wanted;
    if (!current) {
      // A new site: nothing is served yet, so the name is claimed now.
      if (!(await rows.claimSlug(deps.sql, projectId, wanted))) throw taken();
      return wanted;
    }
    // A rename: the old name keeps serving the live deployment until this build is live, and the site takes
    // the new name in that same step (another site claiming it meanwhile fails this build, not the live site).
    if (await rows.slugTaken(deps.sql, wanted)) throw taken();
    await rows.setBuildSlug(deps.sql, deploymentId, wanted);
    return wanted;
  }
  if (current) return current.slug;
  const base = slugFromName(projectName);
  for (const candidate of [base, withSuffix(base), withSuffix(base), withSuffix(base)]) {
    if (await rows.claimSlug(deps.sql, projectId, candidate)) return candidate;
  }
  throw conflict("Could not find a free site name; choose one.");
}

type Build = { access: ProjectAccess; projectId: string; deploymentId: string; slug: string; url: string; allowFindings: boolean };

async function build(deps: PublishDeps, b: Build): Promise<void> {
  const log = createBuildLog(deps.events, { ownerId: b.access.ownerId, projectId: b.projectId, deploymentId: b.deploymentId });
  const status = (status: Deployment["status"], error?: string) =>
    deps.events
      .publishSite({
        type: "deployment.status",
        ownerId: b.access.ownerId,
        projectId: b.projectId,
        deploymentId: b.deploymentId,
        status,
        url: b.url,
        ...(error ? { error } : {}),
      })
      .catch(() => {});
  await status("building");
  try {
    // The files this deployment is built from, recorded as a version (or the newest one, when nothing changed).
    const { version } = await takeVersion(deps, { projectId: b.projectId, source: "manual", label: `Published to ${b.slug}` });
    await deps.sql`update deployments set version_id = ${version.id} where id = ${b.deploymentId}`;
    const server = await isServerApp(deps, b.projectId);
    let files: { manifest: Manifest; bytes: number; migrations?: string[] };
    if (server) {
      if (!deps.servers) throw new AppError(503, "dependency_unavailable", "This server cannot run published servers.");
      const source = await findVersion(deps.sql, b.projectId, version.id);
      if (!source) throw new AppError(500, "internal", "The version to publish was not found.");
      files = await publishServer(
        { ...deps, servers: deps.servers },
        { deploymentId: b.deploymentId, projectId: b.projectId, ownerId: b.access.ownerId, files: source.manifest, allowFindings: b.allowFindings },
        log,
      );
    } else {
      const built = await deploymentFiles(deps, b, version.id, log);
      // Nothing that reaches browsers may carry a secret (issue 22): refused here unless allowFindings.
      await checkClientFiles(deps, b, built.contents ?? built.manifest, log);
      log.write(`Uploaded ${Object.keys(built.manifest).length} files (${(built.bytes / 1024).toFixed(1)} KB).\n`);
      files = built;
    }
    await log.flush();
    const live = await rows.finishBuild(deps.sql, {
      id: b.deploymentId,
      projectId: b.projectId,
      files: files.manifest,
      bytes: files.bytes,
      log: log.text(),
      kind: server ? "server" : "static",
      migrations: files.migrations,
    });
    if (live === "slug-taken") {
      await deps.servers?.retire(b.projectId, null).catch(() => {});
      throw conflict(
        `The site name "${b.slug}" was taken by another site while this one was building; the live site keeps its name. Publish again with another name.`,
      );
    }
    // Every instance drops what it cached for both names: the new one may be cached as "no site here".
    for (const slug of new Set([b.slug, live.slug, live.previousSlug])) {
      if (slug) await deps.events.publishSite({ type: "site.changed", slug }).catch(() => {});
    }
    // The project's other servers stop: the new deployment serves from the next request on.
    await deps.servers?.retire(b.projectId, b.deploymentId);
    await status("live");
    await rows
      .pruneDeployments(deps.sql, b.projectId, deps.config.sites.keep)
      .catch((error) => deps.logger.warn("old deployments not pruned", { projectId: b.projectId, error: String(error) }));
  } catch (error) {
    const known = error instanceof BuildError || error instanceof OutputError || error instanceof MigrationError || error instanceof StartError;
    const message = known || error instanceof AppError ? (error as Error).message : `Publishing failed: ${String(error)}`;
    if (!known) deps.logger.warn("publish failed", { projectId: b.projectId, error: String(error) });
    log.write(`\n${message}\n`);
    await log.flush();
    await rows.failBuild(deps.sql, b.deploymentId, log.text());
    await status("failed", message);
  }
}

/** A project whose package.json has a `start` script is published as a server. */
async function isServerApp(deps: PublishDeps, projectId: string): Promise<boolean> {
  const pkgRow = await findFileByPath(deps.sql, projectId, "package.json");
  const pkg = pkgRow ? await deps.store.get(pkgRow.storageKey) : null;
  return Boolean(packageScripts(pkg)?.start);
}

async function deploymentFiles(
  deps: PublishDeps,
  b: Build,
  versionId: string,
  log: BuildLog,
): Promise<{ manifest: Manifest; bytes: number; contents?: OutputFile[] }> {
  const max = deps.config.sites.maxDeploymentBytes;
  const pkgRow = await findFileByPath(deps.sql, b.projectId, "package.json");
  const packageJson = pkgRow ? await deps.store.get(pkgRow.storageKey) : null;
  if (!buildScript(packageJson)) {
    log.write("No build script in package.json: publishing the project's files as they are.\n");
    const version = await findVersion(deps.sql, b.projectId, versionId);
    const files = staticManifest(version?.manifest ?? {});
    if (files.bytes > max) throw new OutputError(tooBig("The project", files.bytes, max));
    // Refreshes the blobs' last use, so the sweep's grace period starts again while this row is written.
    await blobs.touchBlobs(
      deps.sql,
      Object.values(files.manifest).map(([sha256, size]) => ({ sha256, size })),
    );
    return files;
  }
  const sandbox = await deps.sandboxes.ensure(b.access);
  const dir = await runBuild({
    sandbox,
    packageJson: packageJson!,
    dependencies: { templateCache: deps.sandboxes.templateCache, logger: deps.logger },
    log,
    timeoutMs: deps.config.sites.buildTimeoutMs,
  });
  log.write(`Uploading ${dir}/\n`);
  const files = await readOutput(sandbox, dir, { maxBytes: max, note: (line) => log.write(`${line}\n`) });
  if (files.length === 0) throw new OutputError(`${dir} is empty: nothing to publish.`);
  return { ...(await storeDeploymentFiles(deps, files)), contents: files };
}

const toDeployment = (sites: Config["sites"], slug: string | null, d: rows.DeploymentRow, withLog: boolean): Deployment => ({
  id: d.id,
  createdAt: d.createdAt.toISOString(),
  status: rows.statusOf(d),
  // A build that renames the site is shown under the name it was meant to go live under.
  url: d.state !== "ready" && d.slug ? siteUrl(sites, d.slug) : slug ? siteUrl(sites, slug) : "",
  versionId: d.versionId,
  bytes: d.bytes,
  ...(withLog || d.state !== "ready" ? { buildLog: d.buildLog } : {}),
  ...(d.scanFindings ? { findings: d.scanFindings, findingsAllowed: d.findingsAllowed } : {}),
});

export async function listProjectDeployments(deps: PublishDeps, access: ProjectAccess): Promise<Deployment[]> {
  const project = await getProject(deps, access);
  const [site, list] = await Promise.all([rows.findSite(deps.sql, project.id), rows.listDeployments(deps.sql, project.id)]);
  return list.map((d, i) => toDeployment(deps.config.sites, site?.slug ?? null, d, i === 0));
}

/** Rollback or roll forward: the site serves that deployment from the next request on, on every instance. */
export async function activateDeployment(deps: PublishDeps, access: ProjectAccess, deploymentId: string): Promise<Deployment> {
  const project = await getProject(deps, access);
  const found = isUuid(deploymentId) ? await rows.findDeployment(deps.sql, project.id, deploymentId) : null;
  if (!found) throw notFound("Deployment");
  if (found.state !== "ready") throw conflict(found.state === "building" ? "This deployment is still building." : "A failed build cannot go live.");
  const site = await rows.findSite(deps.sql, project.id);
  if (!site) throw conflict("The project is not published; publish it first.");
  if (!(await rows.activate(deps.sql, project.id, found.id))) throw notFound("Deployment");
  // Code, not data: production is as it is; the activated server starts on its next request. Every instance
  // is told first, then the others are stopped: stopping takes seconds, and a request routed to the old server
  // meanwhile would wake it again and get the old page while its assets come from the new one.
  await deps.events.publishSite({ type: "site.changed", slug: site.slug }).catch(() => {});
  await deps.servers?.retire(project.id, found.id);
  return toDeployment(deps.config.sites, site.slug, { ...found, live: true }, false);
}

/** Unpublish: the site answers 404 at once on every instance; deployments stay, for publishing again. */
export async function unpublishProject(deps: PublishDeps, access: ProjectAccess): Promise<void> {
  const project = await getProject(deps, access);
  const slug = await rows.deleteSite(deps.sql, project.id);
  if (!slug) throw notFound("Published site");
  await deps.events.publishSite({ type: "site.changed", slug });
  // Its server (when it has one, run here) stops now, not at its next idle sweep; production data stays.
  await deps.servers
    ?.retire(project.id, null)
    .catch((error) => deps.logger.warn("server not stopped on unpublish", { projectId: project.id, error: String(error) }));
}

export async function getSiteState(deps: PublishDeps, access: ProjectAccess): Promise<SiteState> {
  const project = await getProject(deps, access);
  const site = await rows.findSite(deps.sql, project.id);
  let unpublishedChanges = false;
  if (site?.liveDeploymentId) {
    const versionId = await rows.liveVersionId(deps.sql, project.id);
    unpublishedChanges = versionId ? await filesChangedSince(deps, project.id, versionId) : true;
  }
  return {
    slug: site?.slug ?? null,
    suggestedSlug: site?.slug ?? slugFromName(project.name),
    url: site ? siteUrl(deps.config.sites, site.slug) : null,
    liveDeploymentId: site?.liveDeploymentId ?? null,
    unpublishedChanges,
  };
}

/** Whether the project's files differ from that version's (a content never hashed yet counts as a change). */
async function filesChangedSince(deps: PublishDeps, projectId: string, versionId: string): Promise<boolean> {
  const version = await findVersion(deps.sql, projectId, versionId);
  if (!version) return true;
  const files = await blobs.listFilesWithHashes(deps.sql, projectId);
  if (files.length !== Object.keys(version.manifest).length) return true;
  return files.some((f) => !f.sha256 || version.manifest[f.path]?.[0] !== f.sha256);
}

export async function listLiveSites(deps: PublishDeps, ownerId: string): Promise<LiveSite[]> {
  const sites = await rows.listLiveSites(deps.sql, ownerId);
  return sites.map((s) => ({ ...s, url: siteUrl(deps.config.sites, s.slug) }));
}
