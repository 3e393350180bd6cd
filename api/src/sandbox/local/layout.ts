/**
 * What a sandbox is made of on the host, and the bubblewrap command that shows it only that.
 *
 * ```
 * <rootDir>/<id>/            root:<uid> 0750
 *   disk.img                 root 0600: the sandbox's own ext4 file system (disk.ts), when it has a quota
 *   vol/                     root:<uid> 0750: that file system mounted (nosuid, nodev), or a plain folder
 *     project/               <uid>, bound read-write at /home/user/project (HOME; synced with storage)
 *     cache/                 <uid>, bound at /home/user/.cache (npm and bun caches, never synced)
 *   db/                      root:<uid> 0750, bound READ-ONLY at /opt/project-db: the host's gateway socket to the
 *                            project's database (<uid> 0600), which the supervisor's 127.0.0.1:5432 forwards to
 *   etc/                     root, read-only: passwd, group, hosts, resolv.conf (10.0.2.3), supervisor.js,
 *                            pty-helper.py
 * <stateDir>/sandboxes/<id>/ root 0700: slirp4netns API socket, owner.json (for the stale sweep)
 * <templateCacheDir>/        root 0711, bound READ-ONLY at /opt/template-cache in every sandbox (when given):
 *   <template>-<hash>/       root 0755: node_modules installed once per template version (template-cache.ts)
 * ```
 *
 * The host enters the namespace and drops to the sandbox uid before bwrap (`nsenter … setpriv … bwrap`):
 * bwrap run as root would map the sandbox user to host root, and files would come out root-owned.
 */
import fs from "node:fs";
import path from "node:path";
import type { Tools } from "./check.ts";
import { mergedUsrLinks } from "./check.ts";
import { mountVolume, unmountVolume, VOLUME_DIR } from "./disk.ts";
import { GUEST_DNS } from "./network.ts";
import { PTY_HELPER_IN_SANDBOX } from "./terminal.ts";

export const SANDBOX_HOME = "/home/user/project";
const SANDBOX_CACHE = "/home/user/.cache";
const SUPERVISOR_IN_SANDBOX = "/opt/sandbox/supervisor.js";
/** Where the host's template dependency cache appears inside every sandbox, read-only. */
export const TEMPLATE_CACHE_IN_SANDBOX = "/opt/template-cache";
/** Where the project database's socket appears inside (supervisor.js listens on 127.0.0.1:5432 and forwards there). */
const DATABASE_DIR_IN_SANDBOX = "/opt/project-db";
/** The socket's name in the sandbox's db folder. */
export const DATABASE_SOCKET_NAME = ".s.PGSQL.5432";

export type Layout = {
  id: string;
  uid: number;
  baseDir: string;
  projectDir: string;
  cacheDir: string;
  etcDir: string;
  /** Holds the host's database gateway socket; read-only inside, so the sandbox cannot plant an impostor. */
  dbDir: string;
  stateDir: string;
  apiSocket: string;
  netns: string;
};

export function layoutFor(rootDir: string, stateRoot: string, id: string, uid: number): Layout {
  const baseDir = path.join(rootDir, id);
  const stateDir = path.join(stateRoot, "sandboxes", id);
  return {
    id,
    uid,
    baseDir,
    projectDir: path.join(baseDir, VOLUME_DIR, "project"),
    cacheDir: path.join(baseDir, VOLUME_DIR, "cache"),
    etcDir: path.join(baseDir, "etc"),
    dbDir: path.join(baseDir, "db"),
    stateDir,
    apiSocket: path.join(stateDir, "slirp.sock"),
    netns: `sbx-${id}`,
  };
}

/**
 * Makes `rootDir` (traverse-only, 0711) and checks that sandbox uids can reach it: bwrap opens the bind
 * sources as the sandbox user. Returns what is wrong, or null.
 */
export function prepareRoot(rootDir: string): string | null {
  fs.mkdirSync(rootDir, { recursive: true, mode: 0o711 });
  fs.chmodSync(rootDir, (fs.statSync(rootDir).mode & 0o7777) | 0o711);
  for (let dir = path.dirname(rootDir); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) {
      return `sandbox rootDir ${rootDir} must be reachable by other users, but ${dir} is not (chmod o+x ${dir}, or choose another folder)`;
    }
    if (dir === path.dirname(dir)) return null;
  }
}

/** The programs the host puts into every sandbox, read-only: the supervisor, the terminal's pty helper. */
export type SandboxPrograms = { supervisor: string; ptyHelper: string };

/** `diskTemplate`: the image to copy and mount as the sandbox's own file system (disk.ts); none = no quota. */
export function createLayout(l: Layout, programs: SandboxPrograms, diskTemplate?: string): void {
  const { uid } = l;
  fs.mkdirSync(l.baseDir, { mode: 0o750 });
  fs.chownSync(l.baseDir, 0, uid);
  if (diskTemplate) {
    try {
      mountVolume(diskTemplate, l.baseDir, uid);
    } catch (err) {
      throw new Error(`could not mount the sandbox's disk (${String(err)}); set SANDBOX_DISK_MB=0 to run sandboxes without a disk quota`);
    }
  } else {
    const vol = path.join(l.baseDir, VOLUME_DIR);
    fs.mkdirSync(vol, { mode: 0o750 });
    fs.chownSync(vol, 0, uid);
  }
  for (const [dir, mode] of [
    [l.projectDir, 0o755],
    [l.cacheDir, 0o700],
  ] as const) {
    fs.mkdirSync(dir, { mode });
    fs.chownSync(dir, uid, uid);
  }
  fs.mkdirSync(l.etcDir, { mode: 0o755 });
  fs.mkdirSync(l.dbDir, { mode: 0o750 });
  fs.chownSync(l.dbDir, 0, uid);
  const files: Record<string, string> = {
    passwd: `root:x:0:0:root:/root:/usr/sbin/nologin\nuser:x:${uid}:${uid}:user:${SANDBOX_HOME}:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    group: `root:x:0:\nuser:x:${uid}:\nnogroup:x:65534:\n`,
    hosts: "127.0.0.1 localhost sandbox\n::1 localhost\n",
    "resolv.conf": `nameserver ${GUEST_DNS}\n`,
    "supervisor.js": programs.supervisor,
    "pty-helper.py": programs.ptyHelper,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(l.etcDir, name), text, { mode: 0o644 });
  }
  fs.mkdirSync(l.stateDir, { recursive: true, mode: 0o700 });
}

export function removeLayout(l: Pick<Layout, "baseDir" | "stateDir">): void {
  unmountVolume(l.baseDir);
  fs.rmSync(l.baseDir, { recursive: true, force: true });
  fs.rmSync(l.stateDir, { recursive: true, force: true });
}

/** The clean environment every command starts from (RunOptions.env is laid over it). */
export function commandEnv(): Record<string, string> {
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: SANDBOX_HOME,
    USER: "user",
    LOGNAME: "user",
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    TMPDIR: "/tmp",
    XDG_CACHE_HOME: SANDBOX_CACHE,
    npm_config_cache: `${SANDBOX_CACHE}/npm`,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    BUN_INSTALL_CACHE_DIR: `${SANDBOX_CACHE}/bun`,
  };
}

export function projectPath(cwd?: string): string {
  if (!cwd || cwd === "." || cwd === "/") return SANDBOX_HOME;
  const parts = cwd.split("/").filter((p) => p && p !== ".");
  if (cwd.startsWith("/") || parts.some((p) => p === ".." || /[\x00-\x1f]/.test(p))) {
    throw new Error(`invalid cwd: ${JSON.stringify(cwd)}`);
  }
  return parts.length ? `${SANDBOX_HOME}/${parts.join("/")}` : SANDBOX_HOME;
}

/**
 * The whole command line: cgroups are joined by `wrap` (limits.ts) before this runs. `templateCacheDir`, when
 * given, is bound read-only at TEMPLATE_CACHE_IN_SANDBOX (skipped if it does not exist).
 */
export function sandboxArgv(l: Layout, tools: Tools, options: { templateCacheDir?: string; seccompFile?: string; commandProcs?: number } = {}): string[] {
  const uid = String(l.uid);
  const etcBinds = ["passwd", "group", "hosts", "resolv.conf"].flatMap((f) => ["--ro-bind", path.join(l.etcDir, f), `/etc/${f}`]);
  const hostEtc: string[] = [];
  for (const p of ["/etc/nsswitch.conf", "/etc/ssl/certs", "/etc/alternatives"]) {
    if (fs.existsSync(p)) hostEtc.push("--ro-bind", p, p);
  }
  try {
    hostEtc.push("--symlink", fs.readlinkSync("/etc/localtime"), "/etc/localtime");
  } catch {
    // no time zone link: UTC
  }
  // The filter reaches bwrap as fd 9, opened here by root: the file itself stays in the root-only state folder.
  const seccomp = options.seccompFile ? ["/bin/sh", "-c", 'exec 9<"$1" || exit 125; shift; exec "$@"', "sh", options.seccompFile] : [];
  return [
    ...seccomp,
    tools.nsenter,
    `--net=/run/netns/${l.netns}`,
    tools.setpriv,
    `--reuid=${uid}`,
    `--regid=${uid}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--no-new-privs",
    tools.bwrap,
    "--unshare-all",
    "--share-net",
    "--uid",
    uid,
    "--gid",
    uid,
    "--hostname",
    "sandbox",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--clearenv",
    ...(options.seccompFile ? ["--seccomp", "9"] : []),
    "--setenv",
    "PATH",
    "/usr/bin:/bin",
    "--setenv",
    "HOME",
    "/",
    "--setenv",
    "BUN_RUNTIME_TRANSPILER_CACHE_PATH",
    "0",
    ...(options.commandProcs ? ["--setenv", "SANDBOX_COMMAND_PROCS", String(options.commandProcs)] : []),
    "--ro-bind",
    "/usr",
    "/usr",
    ...mergedUsrLinks(),
    "--perms",
    "0755",
    "--dir",
    "/etc",
    ...etcBinds,
    ...hostEtc,
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/dev/shm",
    "--tmpfs",
    "/tmp",
    "--perms",
    "0755",
    "--dir",
    "/home/user",
    "--bind",
    l.projectDir,
    SANDBOX_HOME,
    "--bind",
    l.cacheDir,
    SANDBOX_CACHE,
    "--ro-bind",
    path.join(l.etcDir, "supervisor.js"),
    SUPERVISOR_IN_SANDBOX,
    "--ro-bind",
    path.join(l.etcDir, "pty-helper.py"),
    PTY_HELPER_IN_SANDBOX,
    ...(options.templateCacheDir ? ["--ro-bind-try", options.templateCacheDir, TEMPLATE_CACHE_IN_SANDBOX] : []),
    "--ro-bind-try",
    l.dbDir,
    DATABASE_DIR_IN_SANDBOX,
    "--remount-ro",
    "/",
    "--chdir",
    "/",
    tools.runtime,
    SUPERVISOR_IN_SANDBOX,
  ];
}
