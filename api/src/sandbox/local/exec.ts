/**
 * Short host commands (`ip netns add`, `nft -f -`) run to completion: the child is always awaited (the
 * host's pid 1 may not reap orphans), and a non-zero exit throws with the command's stderr.
 *
 * @example
 * await exec(["ip", "netns", "add", "sbx-abc"]);
 */
export async function exec(argv: string[], input?: string): Promise<string> {
  const proc = Bun.spawn(argv, {
    stdin: input === undefined ? "ignore" : new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited with ${code}: ${stderr.trim() || stdout.trim()}`);
  return stdout;
}

/** Like `exec`, but never throws: for clean-up steps that may find nothing to clean. */
export async function tryExec(argv: string[]): Promise<boolean> {
  try {
    await exec(argv);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `pid` no longer exists (or the deadline passes); returns whether it is gone. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!pidAlive(pid)) return true;
    await Bun.sleep(5);
  }
  return !pidAlive(pid);
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
