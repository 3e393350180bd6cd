/**
 * Runs Debian's `wrk` and reads its report. `ensureWrk` installs it with apt when missing (as root), or
 * says how to.
 *
 * @example
 * await ensureWrk();
 * const r = await runWrk({ url: "http://127.0.0.1:3000/api/projects", connections: 50, seconds: 10 });
 * console.log(r.requestsPerSec, r.p99Ms);
 */
export type WrkResult = {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses outside 2xx/3xx: any of these means the server was not doing the work being measured. */
  non2xx: number;
  /** Connect/read/write errors and timeouts (wrk gives up after 2 s): a sign of an overloaded machine. */
  socketErrors: number;
  raw: string;
};

export async function ensureWrk(): Promise<string> {
  const found = Bun.which("wrk");
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error("wrk is not installed. Install it with: sudo apt-get install -y wrk");
  }
  console.log("wrk not found; installing it with apt-get…");
  for (const cmd of [
    ["apt-get", "update", "-qq"],
    ["apt-get", "install", "-y", "-qq", "wrk"],
  ]) {
    const proc = Bun.spawn(cmd, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdout: "ignore", stderr: "inherit" });
    if ((await proc.exited) !== 0) throw new Error(`\`${cmd.join(" ")}\` failed; install wrk by hand (apt-get install -y wrk).`);
  }
  const installed = Bun.which("wrk");
  if (!installed) throw new Error("apt-get installed wrk but it is not on PATH.");
  return installed;
}

export async function runWrk(opts: {
  url: string;
  connections: number;
  seconds: number;
  threads?: number;
  headers?: Record<string, string>;
}): Promise<WrkResult> {
  const args = ["wrk", `-t${opts.threads ?? 2}`, `-c${opts.connections}`, `-d${opts.seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(opts.headers ?? {})) args.push("-H", `${name}: ${value}`);
  args.push(opts.url);
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [raw, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`wrk exited ${code}: ${err || raw}`);
  return parseWrk(raw);
}

export function parseWrk(raw: string): WrkResult {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(raw);
  const p50 = /^\s+50%\s+([\d.]+)(us|ms|s)\b/m.exec(raw);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\b/m.exec(raw);
  const total = /^\s+(\d+) requests in/m.exec(raw);
  if (!rps || !p50 || !p99 || !total) throw new Error(`Could not read wrk's report:\n${raw}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(raw)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(raw);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSec: Number(rps[1]),
    p50Ms: toMs(p50),
    p99Ms: toMs(p99),
    requests: Number(total[1]),
    non2xx,
    socketErrors,
    raw,
  };
}

function toMs(m: RegExpExecArray): number {
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
}
