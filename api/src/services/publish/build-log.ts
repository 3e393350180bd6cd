/**
 * A build's log as it happens: kept whole (up to a cap) for the deployment row, and sent in small batches
 * over the event bus (`deployment.log`) so the owner's browsers, on any instance, watch it live. Batches
 * stay well under NOTIFY's 8000-byte payload limit.
 */
import type { EventBus } from "../../events/types";

const MAX_LOG_CHARS = 256 * 1024;
const CHUNK_CHARS = 3000;
const FLUSH_MS = 100;

export type BuildLog = {
  write(text: string): void;
  text(): string;
  /** Sends what is pending now (before a status change, so the log arrives first). */
  flush(): Promise<void>;
};

export function createBuildLog(events: EventBus, ids: { ownerId: string; projectId: string; deploymentId: string }): BuildLog {
  let whole = "";
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sending: Promise<void> = Promise.resolve();

  const send = () => {
    timer = null;
    const batch = pending;
    pending = "";
    for (let i = 0; i < batch.length; i += CHUNK_CHARS) {
      const text = batch.slice(i, i + CHUNK_CHARS);
      sending = sending.then(() => events.publishSite({ type: "deployment.log", ...ids, text }).catch(() => {}));
    }
    return sending;
  };

  return {
    write(text) {
      if (!text) return;
      if (whole.length < MAX_LOG_CHARS) {
        const room = MAX_LOG_CHARS - whole.length;
        whole += text.length > room ? `${text.slice(0, room)}\n… (log cut at ${MAX_LOG_CHARS / 1024} KB)\n` : text;
      }
      pending += text;
      timer ??= setTimeout(send, FLUSH_MS);
    },
    text: () => whole,
    async flush() {
      if (timer) clearTimeout(timer);
      await send();
    },
  };
}
