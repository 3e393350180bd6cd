/**
 * Puts one server deployment into a sandbox of its own and starts it: the deployment's files (its source, from
 * the object store), its dependencies (the template cache's copy when package.json is a template's, else
 * `npm install`), `npm run build` when there is one and the deployment does not carry its build already
 * (kept-build.ts), then `npm start` as the sandbox's `server` process with PORT, the production DATABASE_URL
 * and the project's secrets. `answering` waits until the server answers HTTP
 * on PORT, and fails at once when the process exits instead.
 *
 * @example
 * const { sandbox, buildOutput } = await provision(deps, spec, log);
 * await startServer(deps, sandbox, spec);
 * await answering(sandbox, 60_000); // throws StartError when it exits or never listens
 */
import { blobKey } from "../../db/blobs";
import type { Manifest } from "../../db/versions";
import type { Logger } from "../../lib/logger";
import { NothingListeningError, type Sandbox, type SandboxProvider } from "../../sandbox/types";
import type { ObjectStore } from "../../storage/types";
import type { AppDatabases } from "../app-databases";
import { installDependencies, templateWithPackageJson } from "../sandboxes/dependencies";
import type { ProjectEnv } from "../sandboxes/project-env";
import type { TemplateCache } from "../sandboxes/template-cache";
import { isKept, keptBuildIn, sandboxPathOf } from "./kept-build";

export class StartError extends Error {}

/** The process name and port a server deployment runs under (its sandbox is its own, so one fixed port serves). */
export const SERVER_PROCESS = "server";
export const SERVER_PORT = 3000;
const INSTALL = "npm install --no-audit --no-fund --loglevel=error";
const WRITE_CONCURRENCY = 8;

export type LaunchDeps = {
  provider: SandboxProvider;
  store: ObjectStore;
  logger: Logger;
  productionDatabases?: AppDatabases;
  env: ProjectEnv;
  templateCache: TemplateCache | null;
  buildTimeoutMs: number;
};

export type ServerSpec = { deploymentId: string; projectId: string; ownerId: string; files: Manifest };

/** Reads a package.json's scripts; null when it is missing or not JSON. */
export function packageScripts(bytes: Uint8Array | null): Record<string, string> | null {
  if (!bytes) return null;
  try {
    const pkg = JSON.parse(new TextDecoder().decode(bytes)) as { scripts?: Record<string, unknown> };
    return Object.fromEntries(Object.entries(pkg.scripts ?? {}).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].trim() !== ""));
  } catch {
    return null;
  }
}

/** What the server process gets: the project's environment (secrets), with production's database in place of development's. */
async function serverEnv(deps: LaunchDeps, spec: ServerSpec): Promise<Record<string, string>> {
  const env = await deps.env.forProject(spec.projectId);
  delete env.DATABASE_URL;
  if (deps.productionDatabases) {
    env.DATABASE_URL = await deps.productionDatabases.sandboxUrl(spec.projectId, deps.provider.kind === "local" ? "local" : "remote");
  }
  return { ...env, PORT: String(SERVER_PORT), NODE_ENV: "production" };
}

/** A sandbox's start: `buildOutput` is what `npm run build` printed (null: it did not run here). */
export type Provisioned = { sandbox: Sandbox; buildOutput: string | null };

async function writeFiles(deps: LaunchDeps, sandbox: Sandbox, entries: [string, Manifest[string]][]): Promise<void> {
  for (let i = 0; i < entries.length; i += WRITE_CONCURRENCY) {
    await Promise.all(
      entries.slice(i, i + WRITE_CONCURRENCY).map(async ([key, [sha256]]) => {
        const bytes = await deps.store.get(blobKey(sha256));
        if (!bytes) throw new StartError(`${sandboxPathOf(key)} could not be read from storage.`);
        await sandbox.files.write(sandboxPathOf(key), bytes);
      }),
    );
  }
}

/** A new sandbox holding the deployment's files, dependencies and build; killed again when any step fails. */
export async function provision(deps: LaunchDeps, spec: ServerSpec, log: (text: string) => void): Promise<Provisioned> {
  const sandbox = await deps.provider.create(spec.projectId);
  try {
    // Its 127.0.0.1:5432 leads to the project's production database only.
    if (sandbox.databaseSocket && deps.productionDatabases) await deps.productionDatabases.serveSandbox(spec.projectId, sandbox.databaseSocket);
    const entries = Object.entries(spec.files);
    // The source first, then a kept build over it: the output folder as the build left it.
    await writeFiles(
      deps,
      sandbox,
      entries.filter(([key]) => !isKept(key)),
    );
    await writeFiles(
      deps,
      sandbox,
      entries.filter(([key]) => isKept(key)),
    );
    const pkg = await sandbox.files.read("package.json");
    const scripts = packageScripts(pkg);
    log("$ installing dependencies\n");
    const installed = await installDependencies(
      { templateCache: deps.templateCache, logger: deps.logger },
      sandbox,
      await templateWithPackageJson(deps.templateCache, pkg!),
      INSTALL,
    );
    if (installed.output) log(`${installed.output}\n`);
    if (installed.exitCode !== 0) throw new StartError("Installing the dependencies failed.");
    let buildOutput: string | null = null;
    if (scripts?.build && keptBuildIn(spec.files)) {
      log("Starting from the build kept with this deployment: not building again.\n");
    } else if (scripts?.build) {
      log("$ npm run build\n");
      buildOutput = "";
      const out = (text: string) => {
        buildOutput += text;
        log(text);
      };
      const built = await sandbox.run("npm run build", {
        timeoutMs: deps.buildTimeoutMs,
        env: { ...(await serverEnv(deps, spec)), CI: "1", FORCE_COLOR: "0", NO_COLOR: "1" },
        onStdout: out,
        onStderr: out,
      });
      if (built.timedOut)
        throw new StartError(`The build took longer than ${Math.round(deps.buildTimeoutMs / 1000)} s (PUBLISH_BUILD_TIMEOUT_S) and was stopped.`);
      if (built.exitCode !== 0) throw new StartError(`The build failed (exit code ${built.exitCode ?? "none"}).`);
    }
    return { sandbox, buildOutput };
  } catch (error) {
    await sandbox.kill().catch(() => {});
    throw error;
  }
}

export async function startServer(deps: LaunchDeps, sandbox: Sandbox, spec: ServerSpec): Promise<void> {
  await sandbox.processes.start(SERVER_PROCESS, "npm start", { env: await serverEnv(deps, spec) });
}

/**
 * Resolves with where the server answers once it answers HTTP on PORT (any status); rejects with StartError when
 * it exits first or the time runs out.
 */
export async function answering(sandbox: Sandbox, timeoutMs: number): Promise<{ hostname: string; port: number }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const info = (await sandbox.processes.list()).find((p) => p.name === SERVER_PROCESS);
    if (!info || info.status === "exited" || info.status === "crashed" || info.restarts > 0) {
      throw new StartError(`The server exited while starting (exit code ${info?.exitCode ?? "none"}) instead of answering on PORT ${SERVER_PORT}.`);
    }
    try {
      const target = await sandbox.previewTarget(SERVER_PORT);
      if (target) {
        const res = await fetch(`http://${target.hostname}:${target.port}/`, { redirect: "manual", signal: AbortSignal.timeout(2_000) });
        await res.body?.cancel();
        return target;
      }
    } catch (error) {
      if (!(error instanceof NothingListeningError) && !(error instanceof Error)) throw error;
    }
    await Bun.sleep(100);
  }
  throw new StartError(`The server did not answer HTTP on PORT ${SERVER_PORT} within ${Math.round(timeoutMs / 1000)} s (PUBLISH_START_TIMEOUT_S).`);
}
