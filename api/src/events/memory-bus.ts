/** In-process EventBus: one instance, embedded mode. */
import type { BusEvent, EventBus, RunBusEvent, SiteBusEvent } from "./types";

export function createMemoryBus(): EventBus {
  const handlers = new Set<(event: BusEvent) => void>();
  const siteHandlers = new Set<(event: SiteBusEvent) => void>();
  const runHandlers = new Set<(event: RunBusEvent) => void>();
  return {
    kind: "memory",
    async publish(event) {
      for (const handler of handlers) queueMicrotask(() => handler(event));
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async publishSite(event) {
      for (const handler of siteHandlers) queueMicrotask(() => handler(event));
    },
    subscribeSite(handler) {
      siteHandlers.add(handler);
      return () => siteHandlers.delete(handler);
    },
    async publishRun(event) {
      for (const handler of runHandlers) queueMicrotask(() => handler(event));
    },
    subscribeRun(handler) {
      runHandlers.add(handler);
      return () => runHandlers.delete(handler);
    },
    // One process, nothing between publisher and subscriber to drop: there is never anything to catch up on.
    onResync: () => () => {},
    async close() {
      handlers.clear();
      siteHandlers.clear();
      runHandlers.clear();
    },
  };
}
