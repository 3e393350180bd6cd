/**
 * Can this machine isolate code the way the local provider needs? Checked once at start-up (to warn) and by
 * `create` (to refuse with `SandboxUnavailableError`): never run code unisolated. Each missing piece comes
 * with how to fix it. A live probe at the end catches what static checks cannot (namespaces refused).
 *
 * @example
 * const support = await checkLocalSandboxSupport();
 * if (!support.ok) logger.warn("local sandboxes unavailable", { missing: support.missing });
 */
import fs from "node:fs";
import { filterRules, hostSubnets } from "./network.ts";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export type Tools = {
  bwrap: string;
  slirp4netns: string;
  nft: string;
  ip: string;
  nsenter: string;
  setpriv: string;
  prlimit: string;
  /** Runs the supervisor inside the sandbox, so it must live under /usr (bound read-only). */
  runtime: string;
};

const PACKAGES: Record<Exclude<keyof Tools, "runtime">, string> = {
  bwrap: "bubblewrap",
  slirp4netns: "slirp4netns",
  nft: "nftables",
  ip: "iproute2",
  nsenter: "util-linux",
  setpriv: "util-linux",
  prlimit: "util-linux",
};

export function findTools(): { tools: Partial<Tools>; missing: string[] } {
  const tools: Partial<Tools> = {};
  const missing: string[] = [];
  const path = `${process.env.PATH ?? ""}:${SEARCH_PATH}`;
  for (const [name, pkg] of Object.entries(PACKAGES) as [keyof typeof PACKAGES, string][]) {
    const found = Bun.which(name, { PATH: path });
    if (found) tools[name] = found;
    else missing.push(`${name} not found: install ${pkg} (apt-get install ${pkg})`);
  }
  const runtime = ["/usr/bin/bun", "/usr/bin/node", "/usr/local/bin/bun", "/usr/local/bin/node"].find((p) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  });
  if (runtime) tools.runtime = runtime;
  else missing.push("no JavaScript runtime under /usr for the sandbox supervisor: install bun (npm install -g bun) or nodejs");
  // util-linux 2.38 or later: the per-command pid namespace needs `unshare --map-user`.
  // Inside the sandbox only /usr (and the /bin, /lib… entries) is visible: the supervisor runs these.
  let help = "";
  try {
    help = Bun.spawnSync(["/usr/bin/unshare", "--help"], { stdout: "pipe", stderr: "pipe" }).stdout.toString();
  } catch {
    // not installed
  }
  if (!help.includes("--map-user")) {
    missing.push("/usr/bin/unshare with --map-user (util-linux 2.38 or later): apt-get install util-linux");
  }
  if (!fs.existsSync("/bin/bash")) missing.push("/bin/bash: apt-get install bash");
  return { tools, missing };
}

function readSysctl(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

function staticChecks(): string[] {
  const missing: string[] = [];
  if (process.platform !== "linux") return ["Linux: the local sandbox uses Linux namespaces (or set SANDBOX_PROVIDER=e2b)"];
  if (process.getuid?.() !== 0) {
    missing.push("root: the API must run as root to create network namespaces and a uid per sandbox (or set SANDBOX_PROVIDER=e2b with E2B_API_KEY)");
  }
  if (readSysctl("/proc/sys/user/max_user_namespaces") === "0") {
    missing.push("user namespaces are disabled: sysctl -w user.max_user_namespaces=10000");
  }
  if (readSysctl("/proc/sys/kernel/unprivileged_userns_clone") === "0") {
    missing.push("unprivileged user namespaces are disabled: sysctl -w kernel.unprivileged_userns_clone=1");
  }
  if (readSysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") === "1") {
    missing.push("AppArmor restricts user namespaces: sysctl -w kernel.apparmor_restrict_unprivileged_userns=0");
  }
  return missing;
}

/** Creates and removes a namespace, and runs bwrap plus a nested pid namespace as a non-root uid. */
async function probe(tools: Tools): Promise<string[]> {
  const name = `sbx-probe-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const add = Bun.spawnSync([tools.ip, "netns", "add", name], { stderr: "pipe" });
  if (!add.success) return [`network namespaces refused (ip netns add: ${add.stderr.toString().trim()})`];
  const nft = Bun.spawnSync([tools.nsenter, `--net=/run/netns/${name}`, tools.nft, "-f", "-"], {
    stdin: new TextEncoder().encode(filterRules(hostSubnets())),
    stderr: "pipe",
  });
  Bun.spawnSync([tools.ip, "netns", "delete", name]);
  if (!nft.success) {
    return [`the nftables filter could not be loaded (nft: ${nft.stderr.toString().trim()}); is the nf_tables kernel module available?`];
  }
  const uid = "199999";
  const argv = [
    tools.setpriv,
    `--reuid=${uid}`,
    `--regid=${uid}`,
    "--clear-groups",
    "--inh-caps=-all",
    tools.bwrap,
    "--unshare-all",
    "--uid",
    uid,
    "--gid",
    uid,
    "--die-with-parent",
    "--ro-bind",
    "/usr",
    "/usr",
    ...mergedUsrLinks(),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "/usr/bin/unshare",
    "--user",
    `--map-user=${uid}`,
    `--map-group=${uid}`,
    "--pid",
    "--fork",
    "--kill-child",
    "--mount-proc",
    "/usr/bin/true",
  ];
  const run = Bun.spawnSync(argv, { stderr: "pipe", cwd: "/" });
  if (!run.success) return [`namespaces refused for a non-root uid (bwrap: ${run.stderr.toString().trim()})`];
  return [];
}

/** The `/bin`, `/lib`… entries of a merged-/usr system as bwrap arguments (links or read-only binds). */
export function mergedUsrLinks(): string[] {
  const args: string[] = [];
  for (const dir of ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"]) {
    try {
      const st = fs.lstatSync(dir);
      if (st.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(dir), dir);
      else if (st.isDirectory()) args.push("--ro-bind", dir, dir);
    } catch {
      // not on this system
    }
  }
  return args;
}

let cached: Promise<{ ok: true; tools: Tools } | { ok: false; missing: string[] }> | null = null;

/** Like `checkLocalSandboxSupport`, with the tools' paths. A success is kept; a failure is checked again. */
export function localSupport(): Promise<{ ok: true; tools: Tools } | { ok: false; missing: string[] }> {
  cached ??= (async () => {
    const missing = staticChecks();
    const found = findTools();
    missing.push(...found.missing);
    if (missing.length) return { ok: false as const, missing };
    const tools = found.tools as Tools;
    const refused = await probe(tools);
    return refused.length ? { ok: false as const, missing: refused } : { ok: true as const, tools };
  })();
  const result = cached;
  void result.then((r) => {
    if (!r.ok && cached === result) cached = null;
  });
  return result;
}

export async function checkLocalSandboxSupport(): Promise<{ ok: true } | { ok: false; missing: string[] }> {
  const support = await localSupport();
  return support.ok ? { ok: true } : support;
}
