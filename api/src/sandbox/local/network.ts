/**
 * A sandbox's network: its own namespace (`ip netns add`), outbound access through a slirp4netns process
 * kept running per sandbox, an nftables `output` filter inside the namespace that refuses every private,
 * loopback and host-local destination, and preview port forwards added through slirp4netns's API socket.
 *
 * `--disable-host-loopback` alone is not enough: host services bound to 0.0.0.0 stay reachable through the
 * host's own address, hence the filter (which names the host's subnets). Replies to forwarded preview
 * connections go to 10.0.2.2 and pass only thanks to the `established,related` rule.
 *
 * @example
 * const nsPath = await addNetns("sbx-abc");
 * const net = await startNetwork({ name: "sbx-abc", apiSocket: "/run/app-sandbox/abc/slirp.sock", … });
 * const hostPort = await net.forward(5173); // 127.0.0.1:hostPort → sandbox:5173
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import type { Subprocess } from "bun";
import type { Logger } from "../../lib/logger.ts";
import { exec, tryExec, waitForExit } from "./exec.ts";

export const GUEST_DNS = "10.0.2.3";
/** Preview port forwards one sandbox may hold open on the host at once. */
export const MAX_FORWARDS = 8;
const READY_TIMEOUT_MS = 10_000;

const BLOCKED_V4 = ["0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16", "224.0.0.0/3"];
const BLOCKED_V6 = ["::1", "fc00::/7", "fe80::/10", "ff00::/8"];

export type SandboxNetwork = {
  readonly name: string;
  readonly slirpPid: number;
  /**
   * Maps a free 127.0.0.1 port on the host to `guestPort` in the sandbox (once per port; at most MAX_FORWARDS
   * at a time, the least recently used removed first).
   */
  forward(guestPort: number): Promise<number>;
  forwardCount(): number;
  alive(): boolean;
  /** Stops slirp4netns and deletes the namespace (its nftables table goes with it). */
  destroy(): Promise<void>;
};

export function netnsPath(name: string): string {
  return `/run/netns/${name}`;
}

export async function addNetns(name: string): Promise<string> {
  await exec(["ip", "netns", "add", name]);
  return netnsPath(name);
}

export async function removeNetns(name: string): Promise<void> {
  await tryExec(["ip", "netns", "delete", name]);
}

/** The host's own subnets (IPv4 networks, IPv6 addresses), which the filter must refuse too. */
export function hostSubnets(): { v4: string[]; v6: string[] } {
  const v4 = new Set<string>();
  const v6 = new Set<string>();
  for (const addrs of Object.values(os.networkInterfaces())) {
    for (const a of addrs ?? []) {
      if (a.internal || !a.cidr) continue;
      if (a.family === "IPv4") v4.add(ipv4Network(a.cidr));
      else v6.add(a.address.split("%")[0]!);
    }
  }
  return { v4: [...v4], v6: [...v6] };
}

function ipv4Network(cidr: string): string {
  const [addr, bitsText] = cidr.split("/");
  const bits = Number(bitsText);
  const n = addr!.split(".").reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  const net = (n & mask) >>> 0;
  return `${[24, 16, 8, 0].map((s) => (net >>> s) & 255).join(".")}/${bits}`;
}

/** The nftables ruleset loaded inside the sandbox's namespace. */
export function filterRules(host: { v4: string[]; v6: string[] }): string {
  const v4 = [...BLOCKED_V4, ...host.v4].join(", ");
  const v6 = [...BLOCKED_V6, ...host.v6].join(", ");
  return `table inet sandbox {
  chain output {
    type filter hook output priority 0; policy accept;
    oifname "lo" accept
    ct state established,related accept
    ip daddr ${GUEST_DNS} udp dport 53 accept
    ip daddr ${GUEST_DNS} tcp dport 53 accept
    meta l4proto tcp ip daddr { ${v4} } reject with tcp reset
    ip daddr { ${v4} } reject
    meta l4proto tcp ip6 daddr { ${v6} } reject with tcp reset
    ip6 daddr { ${v6} } reject
  }
}
`;
}

type StartOptions = {
  name: string;
  apiSocket: string;
  logger: Logger;
  /** Called when slirp4netns exits without being asked to (the sandbox has lost its network). */
  onUnexpectedExit: () => void;
  maxForwards?: number;
};

export async function startNetwork(opts: StartOptions): Promise<SandboxNetwork> {
  const nsPath = netnsPath(opts.name);
  await exec(["nsenter", `--net=${nsPath}`, "nft", "-f", "-"], filterRules(hostSubnets()));
  let stopping = false;
  let exited = false;
  // stdin is the exit fd: if this process dies, the pipe closes and slirp4netns exits with it.
  const slirp: Subprocess<"pipe", "pipe", "pipe"> = Bun.spawn(
    [
      "slirp4netns",
      "--configure",
      "--mtu=65520",
      "--disable-host-loopback",
      "--enable-seccomp",
      "--netns-type=path",
      `--api-socket=${opts.apiSocket}`,
      "--ready-fd=1",
      "--exit-fd=0",
      nsPath,
      "tap0",
    ],
    {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      onExit() {
        exited = true;
        if (!stopping) opts.onUnexpectedExit();
      },
    },
  );
  void drainLog(slirp.stderr, (line) => opts.logger.debug("slirp4netns", { netns: opts.name, line }));
  // slirp4netns writes "1" to the ready fd (stdout) and closes it; its seccomp warning comes first.
  const timeout = Bun.sleep(READY_TIMEOUT_MS).then(() => "timed out");
  const ready = await Promise.race([new Response(slirp.stdout).text(), timeout]);
  if (ready.split("\n").at(-1) !== "1") {
    stopping = true;
    slirp.kill("SIGKILL");
    await slirp.exited;
    throw new Error(`slirp4netns did not start for ${opts.name}: ${ready.trim() || "exited"}`);
  }

  // Most recently used last. Each forward is a listening socket on the host, so they are capped per sandbox:
  // the least recently used one is removed (slirp4netns `remove_hostfwd`) to make room.
  const forwards = new Map<number, Promise<Forward>>();
  const maxForwards = opts.maxForwards ?? MAX_FORWARDS;
  return {
    name: opts.name,
    slirpPid: slirp.pid,
    alive: () => !exited,
    async forward(guestPort) {
      let entry = forwards.get(guestPort);
      if (entry) {
        forwards.delete(guestPort);
        forwards.set(guestPort, entry);
      } else {
        const evicted: Promise<unknown>[] = [];
        while (forwards.size >= maxForwards) {
          const [oldPort, oldest] = forwards.entries().next().value!;
          forwards.delete(oldPort);
          evicted.push(oldest.then((f) => slirpApi(opts.apiSocket, { execute: "remove_hostfwd", arguments: { id: f.id } })).catch(() => {}));
        }
        // Removed before the new one is added, so the sandbox never holds more than the cap.
        entry = Promise.all(evicted).then(() => addForward(opts.apiSocket, guestPort));
        forwards.set(guestPort, entry);
        entry.catch(() => forwards.get(guestPort) === entry && forwards.delete(guestPort));
      }
      return (await entry).hostPort;
    },
    forwardCount: () => forwards.size,
    async destroy() {
      stopping = true;
      if (!exited) {
        slirp.kill("SIGTERM");
        if (!(await waitForExit(slirp.pid, 1000))) slirp.kill("SIGKILL");
        await slirp.exited;
      }
      await removeNetns(opts.name);
    },
  };
}

type Forward = { hostPort: number; id: number };

async function addForward(apiSocket: string, guestPort: number): Promise<Forward> {
  let lastError = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    const hostPort = freeLoopbackPort();
    const reply = await slirpApi(apiSocket, {
      execute: "add_hostfwd",
      arguments: { proto: "tcp", host_addr: "127.0.0.1", host_port: hostPort, guest_port: guestPort },
    });
    if (reply.return) return { hostPort, id: Number((reply.return as { id?: number }).id) };
    lastError = JSON.stringify(reply.error ?? reply);
  }
  throw new Error(`could not forward sandbox port ${guestPort}: ${lastError}`);
}

/**
 * Whether a process of the network namespace `pid` lives in listens on TCP `port` (read from the host in
 * /proc/<pid>/net/tcp{,6}, so asking costs the sandbox nothing).
 */
export function isListening(pid: number, port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const file of ["tcp", "tcp6"]) {
    let table: string;
    try {
      table = fs.readFileSync(`/proc/${pid}/net/${file}`, "utf8");
    } catch {
      continue;
    }
    for (const line of table.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === "0A" && cols[1]?.endsWith(`:${hex}`)) return true; // 0A = LISTEN
    }
  }
  return false;
}

/** A port free on 127.0.0.1 right now (slirp4netns wants an explicit one; a lost race is retried). */
function freeLoopbackPort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

type SlirpReply = { return?: unknown; error?: { desc?: string } };

function slirpApi(apiSocket: string, request: object): Promise<SlirpReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(apiSocket);
    let body = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.end(JSON.stringify(request)));
    socket.on("data", (chunk: string) => (body += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      try {
        resolve(JSON.parse(body) as SlirpReply);
      } catch {
        reject(new Error(`slirp4netns API answered: ${body}`));
      }
    });
  });
}

async function drainLog(stream: ReadableStream<Uint8Array>, log: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let rest = "";
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) log(line);
    }
  } catch {
    // the process is gone; nothing more to log
  }
}
