/**
 * EventBus: how a file change made through one API instance reaches browsers connected to any instance.
 * In-process (embedded mode, one instance) or PostgreSQL LISTEN/NOTIFY (shared database).
 * `origin` tells subscribers who made the change, so the sandbox sync does not echo its own writes.
 */
import type { FileEvent } from "@shared/events/file-events";

export type BusEvent = FileEvent & {
  ownerId: string;
  origin: "api" | "sandbox";
  /**
   * The sandbox sync (`SandboxSync.id`) that already pushed this change, with the bytes in hand, into the
   * sandbox its instance has attached: that instance skips the event; every other one reads the change from
   * storage.
   */
  pushedBy?: string;
};

export interface EventBus {
  readonly kind: "memory" | "postgres";
  publish(event: BusEvent): Promise<void>;
  subscribe(handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}
