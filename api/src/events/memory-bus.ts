/** In-process EventBus: one instance, embedded mode. */
import type { BusEvent, EventBus } from "./types";

export function createMemoryBus(): EventBus {
  const handlers = new Set<(event: BusEvent) => void>();
  return {
    kind: "memory",
    async publish(event) {
      for (const handler of handlers) queueMicrotask(() => handler(event));
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}
