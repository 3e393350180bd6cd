/**
 * EventBus: how a file change made through one API instance reaches browsers connected to any instance.
 * In-process (embedded mode, one instance) or PostgreSQL LISTEN/NOTIFY (shared database).
 * `origin` tells subscribers who made the change, so the sandbox sync does not echo its own writes.
 */
import type { FileEvent } from "@shared/events/file-events";

export type BusEvent = FileEvent & { ownerId: string; origin: "api" | "sandbox" };

export interface EventBus {
  readonly kind: "memory" | "postgres";
  publish(event: BusEvent): Promise<void>;
  subscribe(handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}
