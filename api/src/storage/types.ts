/**
 * ObjectStore: where file contents and uploaded images live (the source of truth for project files).
 * Two implementations, chosen once at start-up: S3 (`s3.ts`) and a local folder (`local.ts`).
 * Keys are '/'-separated, never start with '/', and are built only by the services (never from raw input).
 */
export interface ObjectStore {
  readonly kind: "s3" | "local";
  /** Writes (or overwrites) one object. */
  put(key: string, body: Uint8Array, contentType?: string): Promise<void>;
  /** The object's bytes, or null when there is no such object. */
  get(key: string): Promise<Uint8Array | null>;
  /**
   * The object's bytes as a stream read from the store only as fast as it is consumed (in pieces: 64 KiB
   * from a local folder, as the network delivers them from S3), or null when there is no such object. For
   * objects too large to hold whole (downloads). Cancelling the stream releases what it holds open.
   */
  getStream(key: string): Promise<ReadableStream<Uint8Array> | null>;
  /** Removes one object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix`; returns how many were removed. */
  deletePrefix(prefix: string): Promise<number>;
  /** Every key starting with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Resolves when the store is reachable, rejects otherwise (used by /api/ready). */
  ping(): Promise<void>;
}
