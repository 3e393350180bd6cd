/**
 * The template dependency cache: each template's `node_modules`, installed ONCE per template version and then
 * copied into every project that applies the template, instead of a cold `npm install` in each sandbox.
 *
 * ```
 * <hostDir>/                        root 0711; bound read-only at /opt/template-cache in every local sandbox
 *   <template>-<hash>/              root 0755, appears at once (atomic rename) and is never changed after
 *     node_modules/                 root-owned, world-readable, nothing writable by others
 *     package-lock.json             what the install resolved (copied into the project too)
 *     ready.json                    { template, key, populationId, populatedAt }
 *   .<template>-<hash>.lock         held while one process populates that entry
 * ```
 *
 * Safety: a user's sandbox must never be able to change another user's dependencies. So
 * - an entry is populated by a dedicated, fresh sandbox holding only our template files (never a user's
 *   sandbox): the template's install command runs there, its `node_modules` is MOVED out on the host, the
 *   sandbox is killed (nothing of its uid runs any more), and only then is the tree made root-owned and
 *   published by an atomic rename;
 * - sandboxes see the cache through a read-only bind mount, and each project gets a real copy
 *   (`cp -a`, made by the sandbox's own uid, so its files are the project's), never hard links, which would
 *   share inodes with the cache.
 * The key hashes the template's package.json and install command, so a changed template gets a new entry.
 *
 * @example
 * const cache = createTemplateCache({ provider, logger });
 * if (cache) await cache.populate(await loadTemplate("react"));
 * cache?.copyCommand(template); // "rm -rf node_modules && cp -a /opt/template-cache/react-…/node_modules . && …"
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../lib/logger";
import { processAlive } from "../../lib/parent-watch";
import type { Template } from "./templates";
import { SandboxUnavailableError, type SandboxProvider, type SharedTemplateCache } from "../../sandbox/types";

const POPULATE_TIMEOUT_MS = 5 * 60_000;
/** A lock older than this is from a process that died while populating. */
const STALE_LOCK_MS = 10 * 60_000;
/** After a failed population, applies use the plain install for this long before the next try. */
const RETRY_AFTER_MS = 60_000;

export type TemplateCache = {
  /** The entry name of the template's current version (`react-1a2b…`), or null when it installs nothing. */
  key(template: Template): string | null;
  /** Whether the template's entry is complete and can be copied from. */
  isReady(template: Template): boolean;
  /**
   * The population this process is running right now, if any (not one merely waiting for another process's
   * lock: an apply waits for this one rather than install on its own).
   */
  pending(template: Template): Promise<void> | null;
  /**
   * Makes the template's entry, once: concurrent calls (in this process, or in another process sharing the
   * folder, through the lock file) share one population. Resolves when the entry is ready.
   */
  populate(template: Template): Promise<void>;
  /** Starts `populate` unless it is under way, failed a moment ago, or done; never rejects. */
  populateInBackground(template: Template): void;
  /** The shell command, run inside a project's sandbox as its user, that replaces node_modules with a copy. */
  copyCommand(template: Template): string;
  /** How many populations this process has run to the end (for tests and the bench). */
  readonly populations: number;
};

/** A key from bytes: the template name and the first 16 hex digits of a SHA-256. */
export function cacheKey(name: string, packageJson: Uint8Array, install: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(install);
  hasher.update("\0");
  hasher.update(packageJson);
  return `${name}-${hasher.digest("hex").slice(0, 16)}`;
}

export function templatePackageJson(template: Template): Uint8Array | null {
  return template.files.find((f) => f.path === "package.json")?.content ?? null;
}

/** null when the provider has no shared cache folder (E2B, or a local provider made without one). */
export function createTemplateCache(deps: { provider: SandboxProvider; logger: Logger }): TemplateCache | null {
  const shared = deps.provider.templateCache;
  if (!shared) return null;
  return makeCache(shared, deps.provider, deps.logger);
}

function makeCache(shared: SharedTemplateCache, provider: SandboxProvider, logger: Logger): TemplateCache {
  const { hostDir, sandboxDir } = shared;
  const inflight = new Map<string, Promise<void>>();
  /** Keys this process is building now (it holds their lock). */
  const building = new Set<string>();
  const failedAt = new Map<string, number>();
  let populations = 0;

  const keyOf = (template: Template) => {
    const pkg = templatePackageJson(template);
    return pkg && template.install ? cacheKey(template.name, pkg, template.install) : null;
  };
  const mustKey = (template: Template) => {
    const key = keyOf(template);
    if (!key) throw new Error(`the ${template.name} template installs no dependencies`);
    return key;
  };
  const readyAt = (key: string) => fs.existsSync(path.join(hostDir, key, "ready.json"));

  async function populateOnce(template: Template, key: string): Promise<void> {
    fs.mkdirSync(hostDir, { recursive: true, mode: 0o711 });
    for (;;) {
      if (readyAt(key)) return;
      const lock = await takeLock(path.join(hostDir, `.${key}.lock`));
      if (!lock) {
        // Another process is populating: wait for its entry, or for its lock to go (then try ourselves).
        await Bun.sleep(250);
        continue;
      }
      try {
        if (readyAt(key)) return;
        building.add(key);
        await build(template, key);
        populations++;
        return;
      } finally {
        building.delete(key);
        lock.release();
      }
    }
  }

  async function build(template: Template, key: string): Promise<void> {
    const started = performance.now();
    removeLeftovers(hostDir, key);
    // A fresh sandbox that only ever holds our template's files.
    const sandbox = await provider.create(`template-cache:${key}`);
    const tmp = fs.mkdtempSync(path.join(hostDir, `.tmp-${key}-`)); // root 0700 until published
    let killed = false;
    try {
      for (const file of template.files) await sandbox.files.write(file.path, file.content);
      const result = await sandbox.run(template.install, { timeoutMs: POPULATE_TIMEOUT_MS });
      if (result.exitCode !== 0) {
        throw new Error(
          `"${template.install}" failed (exit ${result.exitCode}${result.timedOut ? ", timed out" : ""}): ${(result.stderr || result.stdout).slice(-1000)}`,
        );
      }
      const projectDir = shared.hostProjectDir(sandbox);
      if (!projectDir) throw new Error("the template cache's sandbox stopped before its dependencies were taken");
      // Moved, not copied, out of the sandbox's folder: afterwards nothing in the sandbox can reach the tree
      // by path, and once the sandbox is killed nothing can reach it at all. Then it becomes root's.
      fs.renameSync(path.join(projectDir, "node_modules"), path.join(tmp, "node_modules"));
      const lockFile = path.join(projectDir, "package-lock.json");
      if (fs.existsSync(lockFile)) fs.copyFileSync(lockFile, path.join(tmp, "package-lock.json"));
      await sandbox.kill();
      killed = true;
      await run(["chown", "-R", "-h", "0:0", tmp]);
      await run(["chmod", "-R", "u+rwX,go+rX,go-w", tmp]);
      const populationId = randomUUID();
      fs.writeFileSync(path.join(tmp, "ready.json"), JSON.stringify({ template: template.name, key, populationId, populatedAt: new Date().toISOString() }), {
        mode: 0o644,
      });
      fs.chmodSync(tmp, 0o755);
      try {
        fs.renameSync(tmp, path.join(hostDir, key));
      } catch (error) {
        // Someone else published the same entry first: theirs is as good as ours.
        if (!readyAt(key)) throw error;
        fs.rmSync(tmp, { recursive: true, force: true });
      }
      logger.info("template dependency cache ready", { template: template.name, key, ms: Math.round(performance.now() - started) });
    } catch (error) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw error;
    } finally {
      if (!killed) await sandbox.kill().catch(() => {});
    }
  }

  const cache: TemplateCache = {
    key: keyOf,
    isReady: (template) => {
      const key = keyOf(template);
      return key !== null && readyAt(key);
    },
    pending: (template) => {
      const key = keyOf(template);
      return (key && building.has(key) && inflight.get(key)) || null;
    },
    populate(template) {
      const key = mustKey(template);
      const running = inflight.get(key);
      if (running) return running;
      const work = populateOnce(template, key).then(
        () => {
          failedAt.delete(key);
        },
        (error: unknown) => {
          failedAt.set(key, Date.now());
          throw error;
        },
      );
      const tracked = work.finally(() => inflight.delete(key));
      inflight.set(key, tracked);
      return tracked;
    },
    populateInBackground(template) {
      const key = keyOf(template);
      if (!key || readyAt(key) || inflight.has(key)) return;
      if (Date.now() - (failedAt.get(key) ?? 0) < RETRY_AFTER_MS) return;
      cache.populate(template).catch((error: unknown) => {
        const fields = { template: template.name, error: String(error) };
        // Without local sandboxes there is nothing to install into, and `create` already says why.
        if (error instanceof SandboxUnavailableError) logger.info("template dependency cache not filled: local sandboxes are unavailable", fields);
        else logger.warn("could not fill the template dependency cache; templates use a plain install", fields);
      });
    },
    copyCommand(template) {
      const entry = `${sandboxDir}/${mustKey(template)}`;
      // A real copy (never `cp -l`), written by the sandbox user, so the project owns every file.
      return `rm -rf node_modules && cp -a ${entry}/node_modules . && { [ ! -f ${entry}/package-lock.json ] || cp ${entry}/package-lock.json .; }`;
    },
    get populations() {
      return populations;
    },
  };
  return cache;
}

/**
 * An exclusive lock file (O_EXCL) naming its holder's pid; null when another live holder has it. A lock whose
 * process is gone (the folder is this machine's), or older than STALE_LOCK_MS, is removed for the next try.
 */
async function takeLock(file: string): Promise<{ release(): void } | null> {
  try {
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, at: Date.now() }), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    let age: number;
    let pid: unknown = null;
    try {
      age = Date.now() - fs.statSync(file).mtimeMs;
      pid = (JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: unknown }).pid;
    } catch {
      age = 0; // just released, or still being written: the caller tries again
    }
    if (age >= STALE_LOCK_MS || (typeof pid === "number" && !processAlive(pid))) fs.rmSync(file, { force: true });
    return null;
  }
  return { release: () => fs.rmSync(file, { force: true }) };
}

/** Half-made entries of `key` left by a process that died while populating. */
function removeLeftovers(hostDir: string, key: string) {
  for (const name of fs.readdirSync(hostDir)) {
    if (name.startsWith(`.tmp-${key}-`)) fs.rmSync(path.join(hostDir, name), { recursive: true, force: true });
  }
}

async function run(argv: string[]): Promise<void> {
  const child = Bun.spawn(argv, { stdout: "ignore", stderr: "pipe" });
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
  if (code !== 0) throw new Error(`${argv.join(" ")} failed (${code}): ${stderr.slice(-500)}`);
}
