/**
 * Puts a project's dependencies into its sandbox: a copy of the template dependency cache's entry when the
 * project is exactly a template (local provider), else a plain install command. `node_modules` never syncs,
 * so every new sandbox needs this before the app can start.
 *
 * @example
 * const installed = await installDependencies(deps, sandbox, template, template.install);
 * if (installed.exitCode !== 0) throw …;
 */
import type { Logger } from "../../lib/logger";
import type { Sandbox } from "../../sandbox/types";
import { templatePackageJson, type TemplateCache } from "./template-cache";
import { loadTemplate, TEMPLATE_NAMES, type Template } from "./templates";
import type { DependencySource } from "./types";

const INSTALL_TIMEOUT_MS = 5 * 60_000;
const COPY_TIMEOUT_MS = 2 * 60_000;

export type DependencyDeps = { templateCache: TemplateCache | null; logger: Logger };

/**
 * A copy of the template's cache entry when `template` is given and its entry is ready (or being made right
 * now, which is waited for), else `fallback` (an empty command means nothing to install). A missing entry is
 * started in the background for next time.
 */
export async function installDependencies(
  deps: DependencyDeps,
  sandbox: Sandbox,
  template: Template | null,
  fallback: string,
): Promise<{ source: DependencySource; exitCode: number | null; output: string }> {
  const cache = deps.templateCache;
  if (template && cache?.key(template)) {
    if (!cache.isReady(template)) {
      const pending = cache.pending(template);
      if (pending) await pending.catch(() => {});
      else cache.populateInBackground(template);
    }
    if (cache.isReady(template)) {
      const copied = await sandbox.run(cache.copyCommand(template), { timeoutMs: COPY_TIMEOUT_MS });
      if (copied.exitCode === 0) return { source: "template-cache", exitCode: 0, output: "" };
      deps.logger.warn("copying template dependencies failed; installing instead", {
        template: template.name,
        exitCode: copied.exitCode,
        stderr: copied.stderr.slice(-500),
      });
    }
  }
  if (!fallback) return { source: "none", exitCode: 0, output: "" };
  const result = await sandbox.run(fallback, { timeoutMs: INSTALL_TIMEOUT_MS });
  return { source: "install", exitCode: result.exitCode, output: (result.stderr || result.stdout).slice(-2000) };
}

/** The template whose package.json is byte for byte this one (and installs something), if any. */
export async function templateWithPackageJson(cache: TemplateCache | null, bytes: Uint8Array): Promise<Template | null> {
  if (!cache) return null;
  for (const name of TEMPLATE_NAMES) {
    const template = await loadTemplate(name);
    const pkg = templatePackageJson(template);
    if (template.install && pkg && Buffer.from(pkg).equals(Buffer.from(bytes))) return template;
  }
  return null;
}
