/**
 * Wraps an ObjectStore so any failure of the store itself surfaces as a 503 "Storage is unreachable"
 * AppError: services then never need to tell a network error from a bug in their own code.
 */
import { AppError, dependencyDown } from "../lib/errors";
import type { ObjectStore } from "./types";

export function guardStore(store: ObjectStore): ObjectStore {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw dependencyDown("Storage", error);
      }
    };
  return {
    kind: store.kind,
    put: wrap(store.put.bind(store)),
    get: wrap(store.get.bind(store)),
    // Only the opening is guarded: a failure mid-stream ends the stream (and the download) with its error.
    getStream: wrap(store.getStream.bind(store)),
    delete: wrap(store.delete.bind(store)),
    deletePrefix: wrap(store.deletePrefix.bind(store)),
    list: wrap(store.list.bind(store)),
    ping: wrap(store.ping.bind(store)),
  };
}
