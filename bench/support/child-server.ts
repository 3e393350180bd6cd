/**
 * A bench server in a process of its own (bench/servers/*.ts), so it shares no event loop with the bench
 * or with the other servers: started with one JSON argument, ready when it prints its first line (JSON, e.g.
 * `{"port": N}`), stopped with SIGTERM (SIGKILL after 5 s).
 *
 * @example
 * const model = await startChildServer<{ baseUrl: string }>("chat-fake-model.ts", undefined, cleanups);
 * const app = await startChildServer<{ port: number }>("serve-chat-app.ts", { modelBaseUrl: model.info.baseUrl }, cleanups);
 */
import type { Cleanups } from "./run-bench";

export type ChildServer<T> = { info: T; pid: number; stop(): Promise<void> };

const SERVERS = new URL("../servers/", import.meta.url);

export async function startChildServer<T>(
  script: string,
  arg: unknown,
  cleanups: Cleanups,
  options: { env?: Record<string, string | undefined>; startMs?: number } = {},
): Promise<ChildServer<T>> {
  const proc = Bun.spawn(["bun", new URL(script, SERVERS).pathname, ...(arg === undefined ? [] : [JSON.stringify(arg)])], {
    stdout: "pipe",
    stderr: "inherit",
    env: options.env ?? process.env,
  });
  const stop = async () => {
    proc.kill("SIGTERM");
    const killer = setTimeout(() => proc.kill("SIGKILL"), 5000);
    await proc.exited;
    clearTimeout(killer);
  };
  cleanups.push(stop);

  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const startMs = options.startMs ?? 60_000;
  const exited = proc.exited.then((code) => ({ exited: code }) as const);
  const timedOut = Bun.sleep(startMs).then(() => ({ timedOut: true }) as const);
  while (!buffered.includes("\n")) {
    const chunk = await Promise.race([reader.read(), exited, timedOut]);
    if ("timedOut" in chunk) throw new Error(`${script} did not start within ${startMs / 1000} s.`);
    if ("exited" in chunk) throw new Error(`${script} exited (code ${chunk.exited}) before it was ready.`);
    if (chunk.done) throw new Error(`${script} closed its output before it was ready.`);
    buffered += decoder.decode(chunk.value, { stream: true });
  }
  // Keep draining its stdout so a chatty server never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      process.stdout.write(value);
    }
  })();
  return { info: JSON.parse(buffered.slice(0, buffered.indexOf("\n"))) as T, pid: proc.pid, stop };
}
