/**
 * Picks the ObjectStore once at start-up from config: S3 when S3_BUCKET is set, else a local folder.
 *
 * @example
 * const storage = createObjectStore(loadConfig().storage);
 */
import type { Config } from "../lib/config";
import { createLocalStore } from "./local";
import { createS3Store } from "./s3";
import type { ObjectStore } from "./types";

export type { ObjectStore } from "./types";

export function createObjectStore(config: Config["storage"]): ObjectStore {
  if (config.kind === "s3") {
    const { kind: _kind, ...options } = config;
    return createS3Store(options);
  }
  return createLocalStore(config.dir);
}
