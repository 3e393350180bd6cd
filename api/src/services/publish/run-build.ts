/**
 * Runs a project's build in its sandbox: dependencies first when the sandbox has none (a new sandbox never
 * gets node_modules from storage), then `npm run build` under the time limit, its output streamed to the
 * build log. Answers the output folder, or throws BuildError with what went wrong.
 *
 * @example
 * const dir = await runBuild({ sandbox, dependencies, log, timeoutMs: 300_000 });
 */
import type { Sandbox } from "../../sandbox/types";
import { installDependencies, templateWithPackageJson, type DependencyDeps } from "../sandboxes/dependencies";
import type { BuildLog } from "./build-log";
import { findOutputDir, OUTPUT_CANDIDATES } from "./build-output";

export class BuildError extends Error {}

const INSTALL = "npm install --no-audit --no-fund --loglevel=error";
const BUILD = "npm run build";

/** The `build` script of package.json, or null when there is none (the project is published as it is). */
export function buildScript(packageJson: Uint8Array | null): string | null {
  if (!packageJson) return null;
  try {
    const pkg = JSON.parse(new TextDecoder().decode(packageJson)) as { scripts?: Record<string, unknown> };
    const script = pkg.scripts?.build;
    return typeof script === "string" && script.trim() ? script : null;
  } catch {
    throw new BuildError("package.json is not valid JSON, so its build script cannot be read.");
  }
}

export async function runBuild(o: {
  sandbox: Sandbox;
  packageJson: Uint8Array;
  dependencies: DependencyDeps;
  log: BuildLog;
  timeoutMs: number;
}): Promise<string> {
  const { sandbox, log } = o;
  const hasModules = await sandbox.run("test -d node_modules", { timeoutMs: 10_000 });
  if (hasModules.exitCode !== 0) {
    log.write("$ installing dependencies\n");
    const template = await templateWithPackageJson(o.dependencies.templateCache, o.packageJson);
    const installed = await installDependencies(o.dependencies, sandbox, template, INSTALL);
    if (installed.output) log.write(`${installed.output}\n`);
    if (installed.exitCode !== 0) throw new BuildError("Installing the dependencies failed.");
  }

  log.write(`$ ${BUILD}\n`);
  const started = Date.now();
  const result = await sandbox.run(BUILD, {
    timeoutMs: o.timeoutMs,
    env: { CI: "1", NODE_ENV: "production", FORCE_COLOR: "0", NO_COLOR: "1" },
    onStdout: (chunk) => log.write(chunk),
    onStderr: (chunk) => log.write(chunk),
  });
  if (result.timedOut) throw new BuildError(`The build took longer than ${Math.round(o.timeoutMs / 1000)} s (PUBLISH_BUILD_TIMEOUT_S) and was stopped.`);
  if (result.exitCode !== 0) throw new BuildError(`The build failed (exit code ${result.exitCode ?? "none"}).`);
  log.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);

  const dir = await findOutputDir(sandbox, log.text());
  if (!dir) throw new BuildError(`The build finished but left no output folder (looked for ${OUTPUT_CANDIDATES.join(", ")}).`);
  return dir;
}
