/**
 * A server deployment's log as its owner reads it: the last 1,000 lines (build, start, the server's own output,
 * sleeps and wakes), kept in memory by the instance that runs it, with new text also sent over the event bus as
 * `deployment.log` in small batches (well under NOTIFY's 8000-byte payload).
 */
import type { EventBus } from "../../events/types";

export const MAX_LOG_LINES = 1_000;
const FLUSH_MS = 100;
const CHUNK_CHARS = 3_000;

export type LogRing = {
  /** Adds text; `publish: false` when another writer (the publish's build log) already sends it. */
  add(text: string, publish?: boolean): void;
  lines(): string[];
};

export function createLogRing(events: EventBus, ids: { ownerId: string; projectId: string; deploymentId: string }): LogRing {
  const kept: string[] = [];
  let partial = "";
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | null = null;
  const send = () => {
    timer = null;
    const batch = pending;
    pending = "";
    for (let i = 0; i < batch.length; i += CHUNK_CHARS) {
      void events.publishSite({ type: "deployment.log", ...ids, text: batch.slice(i, i + CHUNK_CHARS) }).catch(() => {});
    }
  };
  return {
    add(text, publish = true) {
      if (!text) return;
      const parts = (partial + text).split("\n");
      partial = parts.pop()!;
      kept.push(...parts);
      if (kept.length > MAX_LOG_LINES) kept.splice(0, kept.length - MAX_LOG_LINES);
      if (!publish) return;
      pending += text;
      timer ??= setTimeout(send, FLUSH_MS);
    },
    lines: () => (partial ? [...kept, partial].slice(-MAX_LOG_LINES) : [...kept]),
  };
}
