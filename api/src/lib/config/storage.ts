/**
 * The object store: an S3 bucket when S3_BUCKET is set, else a folder under DATA_DIR. S3 settings without a
 * bucket, or half a key pair, stop start-up rather than silently using the folder.
 *
 * @example
 * storageConfig(e, "/srv/data"); // { kind: "local", dir: "/srv/data/objects" }
 */
import { resolve } from "node:path";
import { z } from "zod";
import { boolString, ConfigError, optionalString } from "./values";

export const storageEnv = {
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalString.pipe(z.url({ message: "must be a full URL such as http://127.0.0.1:9000" }).optional()),
  S3_REGION: optionalString,
  S3_FORCE_PATH_STYLE: boolString,
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
};

export type StorageConfig =
  | { kind: "s3"; bucket: string; endpoint?: string; region: string; forcePathStyle: boolean; accessKeyId?: string; secretAccessKey?: string }
  | { kind: "local"; dir: string };

export function storageConfig(e: z.infer<z.ZodObject<typeof storageEnv>>, dataDir: string): StorageConfig {
  if (!e.S3_BUCKET) {
    for (const name of ["S3_ENDPOINT", "S3_REGION"] as const) {
      if (e[name]) throw new ConfigError(`${name} is set but S3_BUCKET is not: set S3_BUCKET to use S3 storage, or unset ${name}.`);
    }
  }
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY)) {
    throw new ConfigError("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together.");
  }
  return e.S3_BUCKET
    ? {
        kind: "s3",
        bucket: e.S3_BUCKET,
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION ?? "us-east-1",
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
        accessKeyId: e.AWS_ACCESS_KEY_ID,
        secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
      }
    : { kind: "local", dir: resolve(dataDir, "objects") };
}
