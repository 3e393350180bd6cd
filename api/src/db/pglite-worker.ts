/**
 * The body of one PGlite thread (started by pglite-thread.ts): opens PGlite on its data folder and serves it on
 * a private Unix socket, so its queries run on this thread and never on the API's event loop.
 * Messages in: {start}, "ping" (answered "pong" unless a statement holds the thread), "stop". Out: "ready",
 * {error}, "pong", "stopped".
 */
import { servePglite } from "./embedded";

export type PgliteWorkerStart = {
  start: {
    dataDir?: string;
    socketPath: string;
    username?: string;
    database?: string;
    maxConnections: number;
    pgliteWasmModule: WebAssembly.Module;
    fsBundle: Blob;
  };
};

declare const self: Worker;

let running: Awaited<ReturnType<typeof servePglite>> | null = null;

self.onmessage = async (event: MessageEvent) => {
  const message = event.data as PgliteWorkerStart | "ping" | "stop";
  if (message === "ping") return postMessage("pong");
  if (message === "stop") {
    await running?.stop().catch(() => {});
    running = null;
    return postMessage("stopped");
  }
  const o = message.start;
  try {
    running = await servePglite(o);
    postMessage("ready");
  } catch (error) {
    postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
