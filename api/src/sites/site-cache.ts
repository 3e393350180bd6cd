/**
 * The site server's memory: which deployment each slug serves (dropped at once when the bus says the slug
 * changed, and re-read after a short while anyway, should a notification be lost), and the bytes of files
 * by content hash, with their compressed forms, in a small LRU bounded by bytes. Contents never change
 * under a hash, so that cache needs no invalidation.
 */
import type { LiveSite } from "../services/publish/live-site";

export type CachedSite = { site: LiveSite | null; loadedAt: number };

export type Encoded = { body: Uint8Array; encoding: "br" | "gzip" | null };

export type CachedBlob = { bytes: Uint8Array; br?: Uint8Array; gzip?: Uint8Array; size: number };

/** Least recently used first: a Map keeps insertion order. */
export class ByteLru<V extends { size: number }> {
  private readonly map = new Map<string, V>();
  private total = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.size;
      this.map.delete(key);
    }
    if (value.size > this.maxBytes) return;
    this.map.set(key, value);
    this.total += value.size;
    while (this.total > this.maxBytes) {
      const [k, v] = this.map.entries().next().value!;
      this.map.delete(k);
      this.total -= v.size;
    }
  }

  /** After a value grew (a compressed form added). */
  resize(key: string, value: V, delta: number): void {
    if (this.map.get(key) !== value) return;
    value.size += delta;
    this.total += delta;
    while (this.total > this.maxBytes && this.map.size > 1) {
      const [k, v] = this.map.entries().next().value!;
      this.map.delete(k);
      this.total -= v.size;
    }
  }

  get bytes(): number {
    return this.total;
  }
}
